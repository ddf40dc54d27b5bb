/**
 * `/restart SERVER` in the chat: a server that failed to start is started afresh without leaving the chat, its tools
 * offered from then on; a name that is no server is refused naming the servers, and the chat goes on.
 */
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { writeFailsFirstStartServer } from '../helpers/fails-first-start.js';
import { runCli, temporaryDirectory } from '../helpers/project.js';

let directory: string | undefined;
afterEach(async () => {
  if (directory) await rm(directory, { recursive: true, force: true });
  directory = undefined;
});

it('starts a server that failed to start again, and refuses a name that is no server', async () => {
  directory = await temporaryDirectory('mcp-host-chat-restart-');
  await writeFailsFirstStartServer(directory);
  await writeFile(join(directory, 'script.json'), JSON.stringify({ scenarios: [] }));
  await writeFile(
    join(directory, 'mcp-host.json'),
    JSON.stringify({
      model: 'scripted:script.json',
      mcpServers: { flaky: { command: process.execPath, args: ['flaky.mjs'], trust: 'trusted' } },
    }),
  );
  const result = await runCli(['chat', '-c', 'mcp-host.json'], {
    cwd: directory,
    stateDir: join(directory, 'state'),
    input: '/tools\n/restart flakey\n/restart flaky\n/tools\n/exit\n',
  });
  expect(result.code, result.stderr).toBe(0);
  const before = result.stdout.indexOf('No tools.');
  const refused = result.stdout.indexOf('mcp-host: no server is named "flakey" (servers: flaky)');
  const restarted = result.stdout.search(/flaky: connected, \d+ tool\(s\)/);
  const listed = result.stdout.indexOf('flaky__sleep');
  expect(before, result.stdout).toBeGreaterThan(-1);
  expect(refused, result.stdout).toBeGreaterThan(before);
  expect(restarted, result.stdout).toBeGreaterThan(refused);
  expect(listed, result.stdout).toBeGreaterThan(restarted);
});
