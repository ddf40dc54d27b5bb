/**
 * A real pseudo-terminal for CLI tests: a tmux server on a private socket, one session per terminal, driven with
 * send-keys and read with capture-pane. The command runs under `sh -c`, followed by `[exited CODE]` so a test
 * can see how it ended; the pane stays until the server is killed (`closeAll`, in afterAll).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { afterAll, beforeAll } from 'vitest';
import { cliPath } from './project.js';

export interface Terminal {
  readonly name: string;
  /** Types text as it is (no key names). */
  type(text: string): void;
  /** Sends named keys: `Enter`, `C-c`, `C-d`, `Tab`. */
  keys(...names: string[]): void;
  /** The whole pane, scrollback included, wrapped lines joined, without colours. */
  screen(): string;
  /** The same with the escape codes the program wrote for colours. */
  styledScreen(): string;
  /** Polls the screen until `expected` appears (or the predicate holds); throws with the screen after `timeoutMs`. */
  waitFor(expected: string | RegExp | ((screen: string) => boolean), timeoutMs?: number): Promise<string>;
  /** The window title the program set (OSC 0 or 2), or tmux's default when it set none. */
  title(): string;
  /** Pid of the program (the child of the pane's shell). */
  programPid(): number | undefined;
}

export interface TmuxServer {
  open(command: string, options?: { env?: Record<string, string>; cwd?: string }): Terminal;
  closeAll(): void;
}

export function startTmuxServer(socket = `mcp-host-test-${process.pid}-${Date.now()}`): TmuxServer {
  const tmux = (...args: string[]): string =>
    execFileSync('tmux', ['-L', socket, '-f', '/dev/null', ...args], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  let count = 0;
  return {
    open(command, options = {}) {
      count += 1;
      const name = `t${count}`;
      const env = Object.entries(options.env ?? {}).flatMap(([key, value]) => ['-e', `${key}=${value}`]);
      tmux(
        'new-session',
        '-d',
        '-s',
        name,
        '-x',
        '120',
        '-y',
        '40',
        ...(options.cwd ? ['-c', options.cwd] : []),
        ...env,
        `${command}; echo "[exited $?]"; sleep 3600`,
      );
      tmux('set-option', '-t', name, 'history-limit', '5000');
      const capture = (styled: boolean) =>
        tmux('capture-pane', '-p', '-J', '-S', '-', ...(styled ? ['-e'] : []), '-t', name).replace(/\s+$/, '');
      const terminal: Terminal = {
        name,
        type: (text) => void tmux('send-keys', '-t', name, '-l', text),
        keys: (...names) => void tmux('send-keys', '-t', name, ...names),
        screen: () => capture(false),
        styledScreen: () => capture(true),
        async waitFor(expected, timeoutMs = 60_000) {
          const holds =
            typeof expected === 'function'
              ? expected
              : typeof expected === 'string'
                ? (screen: string) => screen.includes(expected)
                : (screen: string) => expected.test(screen);
          const deadline = Date.now() + timeoutMs;
          for (;;) {
            const screen = capture(false);
            if (holds(screen)) return screen;
            if (Date.now() > deadline)
              throw new Error(`timed out waiting for ${String(expected)}; the screen:\n${screen}`);
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
        },
        title: () => tmux('display-message', '-p', '-t', name, '#{pane_title}').trim(),
        programPid() {
          const shell = Number(tmux('list-panes', '-t', name, '-F', '#{pane_pid}').trim());
          const children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(shell)], { encoding: 'utf8' }).trim();
          const pid = Number(children.split('\n')[0]);
          return Number.isInteger(pid) && pid > 0 ? pid : undefined;
        },
      };
      return terminal;
    },
    closeAll() {
      try {
        // tmux leaves its socket file behind: it goes too.
        const socketPath = tmux('display-message', '-p', '#{socket_path}').trim();
        tmux('kill-server');
        if (socketPath !== '') rmSync(socketPath, { force: true });
      } catch {
        // Already gone.
      }
    },
  };
}

/**
 * The tmux server of a test file that drives the built CLI: started before its tests (after checking the CLI is
 * built) and closed after them, whatever happened. Call it at the top level; the function it returns gives the server
 * inside a test.
 */
export function useTmuxServer(): () => TmuxServer {
  let tmux: TmuxServer | undefined;
  beforeAll(() => {
    if (!existsSync(cliPath)) throw new Error(`${cliPath} is missing: run \`npm run build\` first`);
    tmux = startTmuxServer();
  });
  afterAll(() => {
    tmux?.closeAll();
  });
  return () => {
    if (tmux === undefined) throw new Error('the tmux server starts in beforeAll: use it inside a test');
    return tmux;
  };
}
