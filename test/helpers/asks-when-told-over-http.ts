/**
 * The asks-when-told fixture served over Streamable HTTP by a process of its own, stopped by pid (also when a test
 * fails, through the returned `stop`).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { waitUntil } from './gateway-process.js';
import { trackUntilExit } from './left-running.js';
import { fixtureServer } from './project.js';

/** `eventLog`: where the server writes `waiting <gate>` as a call starts waiting for a gate. */
export async function startAsksWhenToldOverHttp(eventLog: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const child: ChildProcess = spawn(process.execPath, [fixtureServer('asks-when-told.mjs'), '--http'], {
    env: { ...process.env, EVENT_LOG: eventLog },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  trackUntilExit(child);
  let stdout = '';
  child.stdout?.on('data', (chunk) => {
    stdout += String(chunk);
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  try {
    await waitUntil(() => /listening (\S+)/.test(stdout) || child.exitCode !== null, 'the server to listen');
    const url = /listening (\S+)/.exec(stdout)?.[1];
    if (url === undefined) throw new Error('the fixture server did not start');
    return { url, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
