/**
 * The files the host keeps in its state folder, replaced by someone else with a named pipe (owner-only, so the
 * private-path check lets it through): the built CLI reads none of them as a file. The trust store is refused with an
 * error naming it; the list of approved configs approves nothing. Each read waited for a writer before.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EXIT_USAGE } from '../../src/cli/exit-codes.js';
import { runCli, temporaryDirectory } from '../helpers/project.js';

let stateDir: string;
let project: string;
beforeEach(async () => {
  stateDir = await temporaryDirectory('mcp-host-state-');
  project = await temporaryDirectory('mcp-host-project-');
});
afterEach(async () => {
  await Promise.all([stateDir, project].map((folder) => rm(folder, { recursive: true, force: true })));
});

const mkfifo = (file: string) => execFileSync('mkfifo', ['-m', '600', file]);

describe('state files that are named pipes', () => {
  it('refuses a trust store that is a pipe, naming it, at once', async () => {
    const trustFile = join(stateDir, 'trust.json');
    mkfifo(trustFile);
    const result = await runCli(['trust', 'list'], { stateDir, timeoutMs: 15_000 });
    expect(result.code).toBe(EXIT_USAGE);
    expect(result.stderr).toContain(
      `mcp-host: trust store ${trustFile} cannot be read (found a device, pipe or socket, not a file).`,
    );
  });

  it('approves no config when the list of approved ones is a pipe', async () => {
    mkfifo(join(stateDir, 'approved-configs.json'));
    const config = join(project, 'mcp-host.json');
    writeFileSync(config, JSON.stringify({ mcpServers: {} }));
    const result = await runCli(['tools', 'list'], { cwd: project, stateDir, timeoutMs: 15_000 });
    expect(result.code).toBe(EXIT_USAGE);
    expect(result.stderr).toContain(`${config} was found in the working folder and is not approved yet`);
  });
});

describe('a trust store entry in an unknown state', () => {
  it('refuses the store, naming the file and the server and how to mend it, rather than taking it for approved', async () => {
    const trustFile = join(stateDir, 'trust.json');
    const server = {
      state: 'allowed',
      identity: 'x',
      approvedAt: '',
      approvedBy: 'user',
      tools: {},
      alwaysAllowed: [],
    };
    writeFileSync(trustFile, JSON.stringify({ version: 2, servers: { calc: server }, scopes: {} }), { mode: 0o600 });
    const result = await runCli(['trust', 'list'], { stateDir, timeoutMs: 15_000 });
    expect(result.code).toBe(EXIT_USAGE);
    expect(result.stderr).toContain(
      `mcp-host: trust store ${trustFile} has a damaged entry for server "calc" (the state "allowed", where only "approved" or "revoked" can be: set "revoked" to keep it withheld, or remove the entry to be asked again). Fix the file, or delete it to start over`,
    );
  });
});
