/**
 * The built CLI's `sessions` commands over a sessions folder where a session's or its lock's name is taken by
 * something that is not a file: a named pipe is passed over with a warning (the listing waited for a writer before),
 * the sessions beside it are listed (by the web UI's asynchronous listing too); one under a lock's name is a damaged lock, taken over (the delete waited).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EXIT_OK, EXIT_USAGE } from '../../src/cli/exit-codes.js';
import { openSessionStore } from '../../src/sessions/session-store.js';
import { runCli, temporaryDirectory } from '../helpers/project.js';

let stateDir: string;
beforeEach(async () => {
  stateDir = await temporaryDirectory();
});
afterEach(() => {
  rmSync(stateDir, { recursive: true, force: true });
});

const header = (id: string) =>
  JSON.stringify({
    type: 'session',
    version: 1,
    id,
    config: null,
    model: 'scripted:x',
    createdAt: '2026-01-01T00:00:00.000Z',
    title: 'a saved chat',
  });

describe('sessions in a folder holding a named pipe', () => {
  it('lists the sessions beside the pipe and names the pipe in a warning, at once', async () => {
    const folder = join(stateDir, 'sessions');
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const saved = '20260101-000000-0000aaaa';
    const pipe = join(folder, '20260102-000000-0000bbbb.jsonl');
    writeFileSync(join(folder, `${saved}.jsonl`), `${header(saved)}\n`);
    execFileSync('mkfifo', [pipe]);
    const listed = await runCli(['sessions', 'list', '--json'], { stateDir, timeoutMs: 15_000 });
    expect(listed.code).toBe(EXIT_OK);
    expect((JSON.parse(listed.stdout) as { id: string }[]).map((session) => session.id)).toEqual([saved]);
    expect(listed.stderr).toContain(`skipped a session: ${pipe} is a device, pipe or socket, not a session file`);
    // The web UI's listing, which reads the files asynchronously, passes it over the same way.
    const warnings: string[] = [];
    const listedAsync = await openSessionStore(stateDir).listAsync((warning) => warnings.push(warning));
    expect(listedAsync.map((session) => session.id)).toEqual([saved]);
    expect(warnings).toEqual([`skipped a session: ${pipe} is a device, pipe or socket, not a session file`]);
  });

  it("takes a named pipe under a session lock's name for a damaged lock: the session is deleted at once", async () => {
    const folder = join(stateDir, 'sessions');
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const id = '20260101-000000-0000cccc';
    writeFileSync(join(folder, `${id}.jsonl`), `${header(id)}\n`);
    execFileSync('mkfifo', [join(folder, `${id}.lock`)]);
    const deleted = await runCli(['sessions', 'delete', id], { stateDir, timeoutMs: 15_000 });
    expect(deleted.stderr).toBe('');
    expect(deleted.stdout).toBe(`Deleted session ${id}.\n`);
    expect(deleted.code).toBe(EXIT_OK);
    expect(readdirSync(folder)).toEqual([]);
  });

  it("refuses a folder under a session lock's name, naming it, and leaves the folder and the session", async () => {
    const folder = join(stateDir, 'sessions');
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const id = '20260101-000000-0000dddd';
    const lock = join(folder, `${id}.lock`);
    writeFileSync(join(folder, `${id}.jsonl`), `${header(id)}\n`);
    mkdirSync(lock);
    const deleted = await runCli(['sessions', 'delete', id], { stateDir, timeoutMs: 15_000 });
    expect(deleted.stderr).toBe(`mcp-host: ${lock} is a folder where a lock file belongs: remove it\n`);
    expect(deleted.code).toBe(EXIT_USAGE);
    expect(readdirSync(folder).sort()).toEqual([`${id}.jsonl`, `${id}.lock`]);
  });
});
