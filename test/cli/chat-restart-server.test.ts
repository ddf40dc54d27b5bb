/**
 * `/restart SERVER` in the chat: a server that failed to start is started afresh without leaving the chat, its tools
 * offered from then on; a name that is no server is refused naming the servers, and the chat goes on. Read from a pipe,
 * and typed in a real pseudo-terminal (tmux), its server's name completed with Tab.
 */
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { writeFailsFirstStartServer } from '../helpers/fails-first-start.js';
import { cliPath, runCli, temporaryDirectory } from '../helpers/project.js';
import { useTmuxServer } from '../helpers/tmux-terminal.js';

let directory: string | undefined;
afterEach(async () => {
  if (directory) await rm(directory, { recursive: true, force: true });
  directory = undefined;
});

const terminals = useTmuxServer();

/** A folder with a config of one server, `flaky`, which fails its first start, and the scripted model: its path. */
async function flakyProject(): Promise<string> {
  const folder = await temporaryDirectory('mcp-host-chat-restart-');
  await writeFailsFirstStartServer(folder);
  await writeFile(join(folder, 'script.json'), JSON.stringify({ scenarios: [] }));
  await writeFile(
    join(folder, 'mcp-host.json'),
    JSON.stringify({
      model: 'scripted:script.json',
      mcpServers: { flaky: { command: process.execPath, args: ['flaky.mjs'], trust: 'trusted' } },
    }),
  );
  return folder;
}

it('starts a server that failed to start again, and refuses a name that is no server', async () => {
  directory = await flakyProject();
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

it('in a terminal: Tab completes the server name after /restart, and the server comes back', async () => {
  directory = await flakyProject();
  const terminal = terminals().open(`${process.execPath} ${cliPath} chat -c mcp-host.json`, {
    cwd: directory,
    env: { MCP_HOST_STATE_DIR: join(directory, 'state'), HOME: directory },
  });
  await terminal.waitFor('/help for commands', 60_000);
  terminal.type('/restart fl');
  terminal.keys('Tab');
  await terminal.waitFor(/\/restart flaky\s*$/m, 30_000);
  terminal.keys('Enter');
  await terminal.waitFor(/^flaky: connected, \d+ tool\(s\)$/m, 60_000);
  terminal.type('/exit');
  terminal.keys('Enter');
  await terminal.waitFor('[exited 0]', 30_000);
}, 180_000);
