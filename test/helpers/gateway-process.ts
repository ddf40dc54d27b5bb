/**
 * The built CLI's `mcp-host serve --http 0` as a child process: started, its URL read from stderr, and stopped by
 * pid (also when a test fails, through the returned `stop`).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { trackUntilExit } from './left-running.js';
import { bundledCliPath } from './project.js';
import { waitUntil as waitUntilShared } from './wait-until.js';

export interface GatewayProcess {
  /** `http://127.0.0.1:PORT/mcp` */
  url: string;
  child: ChildProcess;
  stderr: () => string;
  stop(): Promise<void>;
}

/** `waitUntil` with the gateway tests' longer default: their waits include starting servers. */
export function waitUntil(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  return waitUntilShared(check, what, timeoutMs, 50);
}

const GATEWAY_START_TIMEOUT_MS = 60_000;

export async function startGatewayProcess(args: string[], env: Record<string, string> = {}): Promise<GatewayProcess> {
  const child = spawn(process.execPath, [bundledCliPath(), 'serve', '--http', '0', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  trackUntilExit(child);
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr += String(chunk);
  });
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  try {
    // Start-up connects every configured server first: on a busy shared machine that can take a while.
    await waitUntil(
      () => /serving (http:\S+)/.test(stderr) || child.exitCode !== null,
      'the gateway to start',
      GATEWAY_START_TIMEOUT_MS,
    );
  } catch (error) {
    await stop();
    throw error;
  }
  const match = /serving (http:\S+)/.exec(stderr);
  if (!match) {
    await stop();
    throw new Error(`the gateway did not start:\n${stderr}`);
  }
  return { url: match[1]!, child, stderr: () => stderr, stop };
}
