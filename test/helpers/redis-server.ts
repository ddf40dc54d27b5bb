/**
 * A real `redis-server` (the Debian package) on a free loopback port, without persistence, for the gateway store's
 * tests; `stop` ends it by its pid. `watchRedisCommands` sees the commands it runs.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createClient } from 'redis';
import { freePort } from './free-port.js';
import { waitUntil } from './gateway-process.js';

export interface RedisServer {
  url: string;
  stop(): Promise<void>;
}

export async function startRedisServer(): Promise<RedisServer> {
  const port = await freePort();
  const redis: ChildProcess = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const stop = async (): Promise<void> => {
    if (redis.exitCode !== null || redis.signalCode !== null) return;
    const exited = new Promise((resolve) => redis.once('exit', resolve));
    redis.kill('SIGTERM');
    await exited;
  };
  let output = '';
  redis.stdout?.on('data', (chunk) => {
    output += String(chunk);
  });
  redis.once('error', (error) => {
    output += `\n${error.message} (install the redis-server package)`;
  });
  try {
    await waitUntil(
      () => output.includes('Ready to accept connections') || redis.exitCode !== null || output.includes('ENOENT'),
      'redis-server',
    );
  } catch (error) {
    await stop();
    throw error;
  }
  if (!output.includes('Ready to accept connections')) {
    await stop();
    throw new Error(`redis-server did not start:\n${output}`);
  }
  return { url: `redis://127.0.0.1:${port}`, stop };
}

export interface RedisCommandWatch {
  /** Resolves once the server has run a command with exactly these words (`['GET', 'prefix:answer:key']`). */
  ran(words: string[]): Promise<void>;
  close(): Promise<void>;
}

/**
 * Every command the server at `url` runs from now on, seen through MONITOR on a connection of its own: what a test
 * waits on to know that another client's command has reached the server, instead of waiting for a fixed time.
 */
export async function watchRedisCommands(url: string): Promise<RedisCommandWatch> {
  const monitor = createClient({ url });
  monitor.on('error', () => undefined);
  await monitor.connect();
  const lines: string[] = [];
  await monitor.monitor((line) => {
    lines.push(String(line));
  });
  return {
    ran: (words) => {
      // A MONITOR line is `time [db address] "WORD" "WORD" …`, each word quoted.
      const quoted = words.map((word) => JSON.stringify(word)).join(' ');
      return waitUntil(() => lines.some((line) => line.endsWith(`] ${quoted}`)), `redis to run ${quoted}`);
    },
    close: async () => {
      await monitor.close();
    },
  };
}
