/** Starts the fixture server that speaks only the legacy HTTP+SSE transport (see its file for `args`). */
import { type ChildProcess, spawn } from 'node:child_process';
import { bundledFixture } from './bundled-fixture.js';
import { repoRoot } from './project.js';

export interface LegacySseServer {
  /** The URL of its event stream. */
  url: string;
  stop(): void;
}

export async function startLegacySseServer(args: string[] = []): Promise<LegacySseServer> {
  const server: ChildProcess = spawn(
    process.execPath,
    [bundledFixture(`${repoRoot}/test/fixtures/host/legacy-sse-server.mjs`), ...args],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    server.stderr!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /listening (\S+)/.exec(seen);
      if (match) resolve(match[1]!);
    });
    server.once('exit', (code) => reject(new Error(`the legacy SSE server exited with ${code}: ${seen}`)));
  }).catch((error: unknown) => {
    server.kill('SIGKILL');
    throw error;
  });
  return { url, stop: () => server.kill('SIGTERM') };
}
