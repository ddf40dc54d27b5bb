/** Starts the fixture server that speaks only the legacy HTTP+SSE transport (see its file for `args`). */
import { type ChildProcess, spawn } from 'node:child_process';
import { bundledFixture } from './bundled-fixture.js';
import { trackUntilExit } from './left-running.js';
import { repoRoot } from './project.js';

/** How long the fixture gets to say it is listening; past that it is killed and the start fails. */
const START_TIMEOUT_MS = 30_000;

export interface LegacySseServer {
  /** The URL of its event stream. */
  url: string;
  /** Stops the server and resolves once it has exited. */
  stop(): Promise<void>;
}

export async function startLegacySseServer(args: string[] = []): Promise<LegacySseServer> {
  const server: ChildProcess = spawn(
    process.execPath,
    [bundledFixture(`${repoRoot}/test/fixtures/host/legacy-sse-server.mjs`), ...args],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  trackUntilExit(server);
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  const stop = async (signal: NodeJS.Signals = 'SIGTERM'): Promise<void> => {
    if (server.exitCode === null && server.signalCode === null) server.kill(signal);
    await exited;
  };
  let timer: NodeJS.Timeout | undefined;
  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    server.stderr!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /listening (\S+)/.exec(seen);
      if (match) resolve(match[1]!);
    });
    server.once('exit', (code) => reject(new Error(`the legacy SSE server exited with ${code}: ${seen}`)));
    timer = setTimeout(
      () => reject(new Error(`the legacy SSE server did not start within ${START_TIMEOUT_MS} ms: ${seen}`)),
      START_TIMEOUT_MS,
    );
  })
    .catch(async (error: unknown) => {
      await stop('SIGKILL');
      throw error;
    })
    .finally(() => clearTimeout(timer));
  return { url, stop: () => stop() };
}
