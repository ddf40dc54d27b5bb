/**
 * One session, one writer: while `mcp-host chat` has a session open in a real terminal (tmux), another chat cannot
 * resume or continue it and `sessions delete` cannot remove it; once the first chat leaves, the session is free
 * again, and a lock left by a process that has ended is taken over, also when its pid now names another process. A
 * lock written on another host is never taken over, only refused, until it is deleted.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT_OK, EXIT_USAGE } from '../../src/cli/exit-codes.js';
import { cliPath, runCli, temporaryDirectory } from '../helpers/project.js';
import { useTmuxServer } from '../helpers/tmux-terminal.js';

const STEP = 90_000;
const terminals = useTmuxServer();
const onLinux = existsSync('/proc/self/stat');

interface SavedSession {
  directory: string;
  stateDir: string;
  sessions: string;
  chat: (args: string[], input: string) => ReturnType<typeof runCli>;
  id: string;
  lock: string;
  /** A copy of the state folder as the first chat left it. */
  pristine: string;
}

let saved: SavedSession | undefined;

/**
 * A folder with a scripted model and one saved session (not open), and a `chat` that runs in it. The session is
 * made by a real chat once per file; each later test gets the state folder back as that chat left it (the session
 * names its config by path, so the folder itself is reused rather than copied elsewhere).
 */
async function sessionToResume(): Promise<Omit<SavedSession, 'pristine'>> {
  if (saved !== undefined) {
    rmSync(saved.stateDir, { recursive: true, force: true });
    cpSync(saved.pristine, saved.stateDir, { recursive: true });
    expect(existsSync(saved.lock)).toBe(false);
    return saved;
  }
  const directory = await temporaryDirectory('mcp-host-session-in-use-');
  const stateDir = join(directory, 'state');
  writeFileSync(join(directory, 'script.json'), JSON.stringify({ scenarios: [], fallbackText: 'Noted.' }));
  writeFileSync(join(directory, 'mcp-host.json'), JSON.stringify({ model: 'scripted:script.json', mcpServers: {} }));
  const chat = (args: string[], input: string) =>
    runCli(['chat', '-c', 'mcp-host.json', ...args], { cwd: directory, stateDir, input, timeoutMs: STEP });

  expect((await chat([], 'Hello\n')).code).toBe(EXIT_OK);
  const sessions = join(stateDir, 'sessions');
  const id = readdirSync(sessions)
    .find((name) => name.endsWith('.jsonl'))!
    .replace(/\.jsonl$/, '');
  const lock = join(sessions, `${id}.lock`);
  expect(existsSync(lock)).toBe(false);
  const pristine = join(directory, 'state-after-first-chat');
  cpSync(stateDir, pristine, { recursive: true });
  saved = { directory, stateDir, sessions, chat, id, lock, pristine };
  return saved;
}

/** Field 22 of /proc/<pid>/stat, read here independently of the code under test. */
function startTimeOf(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]!;
}

const bootId = () => readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
/** How a lock names this machine. */
const thisHost = `host=${encodeURIComponent(hostname())}`;

describe('a session open in one chat', () => {
  it('is refused to a second chat and to delete until the first leaves; a stale lock is taken over', async () => {
    const { directory, stateDir, sessions, chat, id, lock } = await sessionToResume();

    const first = terminals().open(
      `cd ${directory} && ${process.execPath} ${cliPath} chat -c mcp-host.json --resume ${id}`,
      {
        env: { MCP_HOST_STATE_DIR: stateDir, HOME: directory },
      },
    );
    await first.waitFor('(resumed: 2 message(s), 1 from you)', STEP);
    const holder = first.programPid()!;
    // The lock names the holder by pid, and on Linux by when it started and in which boot, and its host.
    expect(readFileSync(lock, 'utf8')).toBe(
      onLinux ? `${holder} ${startTimeOf(holder)} ${bootId()} ${thisHost}\n` : `${holder} ${thisHost}\n`,
    );

    const [resumed, continued, deleted] = await Promise.all([
      chat(['--resume', id], 'Interleaved?\n'),
      chat(['--continue'], 'Interleaved too?\n'),
      runCli(['sessions', 'delete', id], { stateDir }),
    ]);
    const refusal = `mcp-host: session ${id} is open in another mcp-host (pid ${holder}); leave that chat first, or start a new conversation (if no such process is yours, delete ${lock})\n`;
    for (const result of [resumed, continued]) {
      expect(result.code).toBe(EXIT_USAGE);
      expect(result.stderr).toContain(refusal);
    }
    expect(deleted.code).toBe(EXIT_USAGE);
    expect(deleted.stderr).toContain(
      `mcp-host: session ${id} is open in another mcp-host (pid ${holder}); leave that chat first, then delete the session again (if no such process is yours, delete ${lock})\n`,
    );
    expect(resumed.stdout).not.toContain('Noted.');
    expect(existsSync(join(sessions, `${id}.jsonl`))).toBe(true);

    first.type('Still mine.');
    first.keys('Enter');
    await first.waitFor(/Still mine\.\nNoted\./, STEP);
    first.keys('C-d');
    await first.waitFor('[exited 0]', STEP);
    expect(existsSync(lock)).toBe(false);

    // A lock whose process has ended (a pid above any the system hands out) does not keep the session.
    writeFileSync(lock, '99999999\n');
    const after = await chat(['--resume', id], 'Back again.\n');
    expect(after.code).toBe(EXIT_OK);
    expect(after.stdout).toContain('(resumed: 4 message(s), 2 from you)');
    expect(existsSync(lock)).toBe(false);
  }, 300_000);

  it.runIf(onLinux)(
    'is taken over when its pid now names a process that started later, not otherwise',
    async () => {
      const { chat, id, lock } = await sessionToResume();
      // A live process that holds no session, standing for one that was given the pid of a chat that has ended.
      const unrelated: ChildProcess = spawn('sleep', ['600'], { stdio: 'ignore' });
      try {
        await once(unrelated, 'spawn');
        const pid = unrelated.pid!;
        const started = startTimeOf(pid);
        const refusal = `mcp-host: session ${id} is open in another mcp-host (pid ${pid});`;

        // Its pid, start time and boot: that process holds the lock.
        writeFileSync(lock, `${pid} ${started} ${bootId()}\n`);
        const same = await chat(['--resume', id], 'Mine?\n');
        expect(same.code).toBe(EXIT_USAGE);
        expect(same.stderr).toContain(refusal);

        // A lock of the old format (the pid alone) is judged by the pid, as before.
        writeFileSync(lock, `${pid}\n`);
        const old = await chat(['--resume', id], 'Mine now?\n');
        expect(old.code).toBe(EXIT_USAGE);
        expect(old.stderr).toContain(refusal);

        // Same pid, another start time, or another boot: the holder has ended, and the session is taken over.
        for (const stale of [`${pid} ${Number(started) - 1} ${bootId()}`, `${pid} ${started} 0-other-boot`]) {
          writeFileSync(lock, `${stale}\n`);
          const taken = await chat(['--resume', id], 'Taken over.\n');
          expect(taken.stderr).not.toContain(refusal);
          expect(taken.code).toBe(EXIT_OK);
          expect(existsSync(lock)).toBe(false);
        }
        expect(unrelated.exitCode).toBeNull();
      } finally {
        unrelated.kill();
      }
    },
    300_000,
  );

  it('is refused, never taken over, while a lock written on another host names it; deleting the lock frees it', async () => {
    const { stateDir, chat, id, lock } = await sessionToResume();
    // As a chat on another machine sharing the sessions folder writes it: a pid, start time and boot of its own (here
    // the pid runs no process and the boot is not this one's, which would make a lock of this host stale).
    const foreignLocks = [
      '99999999 4242 0f0e0d0c-0000-4000-8000-000000000000 host=far-away.example\n',
      // Where that machine has no /proc, the pid alone and the host.
      '99999999 host=far-away.example\n',
    ];
    const refusal = `mcp-host: session ${id} is open in an mcp-host on far-away.example (pid 99999999); leave that chat first, or start a new conversation (whether it still runs cannot be seen from this machine: if no chat on far-away.example has it open, delete ${lock})\n`;
    for (const foreign of foreignLocks) {
      writeFileSync(lock, foreign);
      const [resumed, continued, deleted] = await Promise.all([
        chat(['--resume', id], 'Mine?\n'),
        chat(['--continue'], 'Mine too?\n'),
        runCli(['sessions', 'delete', id], { stateDir }),
      ]);
      for (const result of [resumed, continued]) {
        expect(result.stderr).toContain(refusal);
        expect(result.code).toBe(EXIT_USAGE);
      }
      // Deleting is said to wait for that chat, not to start another conversation.
      expect(deleted.stderr).toContain(refusal.replace('or start a new conversation', 'then delete the session again'));
      expect(deleted.code).toBe(EXIT_USAGE);
      expect(readFileSync(lock, 'utf8')).toBe(foreign);
    }

    // What the refusal says to do when that chat is gone.
    rmSync(lock);
    const after = await chat(['--resume', id], 'Mine now.\n');
    expect(after.code).toBe(EXIT_OK);
    expect(after.stdout).toContain('(resumed: 2 message(s), 1 from you)');
    expect(existsSync(lock)).toBe(false);
  }, 300_000);
});
