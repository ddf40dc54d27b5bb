/**
 * A config for the chat tests of call warnings: a scripted model that makes `calls` calls together to a server that
 * dies once all of them are in flight, after writing a 60,000-character stderr line, so that each call is sent once
 * more with that line in its warning.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fixtureServer, temporaryDirectory } from './project.js';

/** Writes the config and its script in a fresh temporary folder; returns the config's path. Asking `read` starts it. */
export async function writeCrashingCallsConfig(calls: number): Promise<string> {
  const directory = await temporaryDirectory('mcp-host-ui-warnings-');
  const config = join(directory, 'mcp-host.json');
  await writeFile(
    config,
    JSON.stringify({
      model: 'scripted:script.json',
      maxParallelCalls: calls,
      permissions: { allow: ['loud__*'] },
      mcpServers: {
        loud: {
          command: process.execPath,
          args: [fixtureServer('crash-mid-call.mjs')],
          env: {
            EXITED_ONCE_FILE: join(directory, 'exited-once'),
            CALLS_IN_FLIGHT_TO_EXIT: String(calls),
            STDERR_LINE_CHARS: '60000',
          },
          trust: 'trusted',
        },
      },
    }),
  );
  await writeFile(
    join(directory, 'script.json'),
    JSON.stringify({
      scenarios: [
        {
          match: 'read',
          turns: [
            { toolCalls: Array.from({ length: calls }, () => ({ name: 'loud__read_together_exits', arguments: {} })) },
            { text: 'All read.' },
          ],
        },
      ],
    }),
  );
  return config;
}
