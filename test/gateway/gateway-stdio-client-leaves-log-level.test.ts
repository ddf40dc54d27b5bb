/**
 * `mcp-host serve --stdio` ends with its client's connection: a client that set a level and then closes its end has
 * the gateway's servers asked for no other level just before they stop, as a gateway closed otherwise does not (see
 * gateway-shutdown-log-level.test.ts). The official v2 SDK client in front of the built CLI, the forwarding fixture
 * server behind it, which writes each level it is asked for to a file that outlasts it.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import type { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterEach, expect, it } from 'vitest';
import { writeFixtureServersConfig } from '../helpers/fixture-servers-config.js';
import { isAlive, temporaryDirectory } from '../helpers/project.js';
import { connectStdioGateway } from '../helpers/stdio-gateway.js';
import { textOf } from '../helpers/text-of.js';
import { waitUntil } from '../helpers/wait-until.js';

let client: Client | undefined;
let transport: StdioClientTransport | undefined;

afterEach(async () => {
  const pid = transport?.pid;
  await client?.close().catch(() => undefined);
  if (pid !== undefined && pid !== null && isAlive(pid)) process.kill(pid, 'SIGKILL');
});

it('asks the servers for no level as its client, at debug, closes the connection', async () => {
  const stateDir = await temporaryDirectory('mcp-host-stdio-leaves-level-');
  const levelsLog = join(stateDir, 'levels.log');
  const config = await writeFixtureServersConfig({
    forwarding: { file: 'forwarding.mjs', env: { LEVELS_LOG: levelsLog } },
  });
  client = new Client({ name: 'client-at-debug', version: '1.0.0' });
  transport = await connectStdioGateway(client, config, stateDir);
  await client.setLoggingLevel('debug');
  const gatewayPid = transport.pid!;
  const serverPid = Number(textOf(await client.callTool({ name: 'forwarding__pid', arguments: {} })));

  // Its standard input closed: the gateway stops, and its server with it.
  await client.close();
  await waitUntil(() => !isAlive(gatewayPid) && !isAlive(serverPid), 'the gateway and its server to stop');
  expect(await readFile(levelsLog, 'utf8')).toBe('debug\n');
}, 60_000);
