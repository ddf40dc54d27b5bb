/**
 * A server that refuses `logging/setLevel` with an error answer is said on the gateway's stderr, naming the server and
 * the level, once per server and level however often clients ask for it, with the server's error text cut short and
 * without its control codes. The built CLI's HTTP gateway, an official v2 SDK client in front of it, the refuses-level
 * fixture server (which refuses every level with a long, hostile message) behind it.
 */
import { Client } from '@modelcontextprotocol/client';
import { afterEach, expect, it } from 'vitest';
import { bearerTransport } from '../helpers/bearer-transport.js';
import { writeFixtureServersConfig } from '../helpers/fixture-servers-config.js';
import { type GatewayProcess, startGatewayProcess, waitUntil } from '../helpers/gateway-process.js';
import { temporaryDirectory } from '../helpers/project.js';
import { textOf } from '../helpers/text-of.js';

const TOKEN = 'a-level-refused-test-token-of-enough-length';

let gateway: GatewayProcess | undefined;
let client: Client | undefined;

afterEach(async () => {
  await client?.close().catch(() => undefined);
  await gateway?.stop();
});

const reportsOf = (stderr: string, level: string) =>
  stderr.split('\n').filter((line) => line.includes(`server "refuser" did not take the log level "${level}"`));

it('says once per server and level that a server refused a log level', async () => {
  const config = await writeFixtureServersConfig({ refuser: { file: 'refuses-level.mjs' } });
  const stateDir = await temporaryDirectory('mcp-host-level-refused-');
  gateway = await startGatewayProcess(['--config', config, '--state-dir', stateDir], {
    MCP_HOST_GATEWAY_TOKEN: TOKEN,
  });
  client = new Client({ name: 'level-refused-test', version: '1.0.0' });
  await client.connect(bearerTransport(gateway.url, TOKEN));

  await client.setLoggingLevel('debug');
  await client.setLoggingLevel('debug');
  await client.setLoggingLevel('error');
  expect(textOf(await client.callTool({ name: 'refuser__levels_asked', arguments: {} }))).toBe('debug,debug,error');
  // stderr keeps its order: once the report of errors is there, any second report of debug would be too.
  await waitUntil(() => reportsOf(gateway!.stderr(), 'error').length > 0, 'the refusal of errors to be said');

  const debugReports = reportsOf(gateway.stderr(), 'debug');
  expect(debugReports).toHaveLength(1);
  expect(debugReports[0]).toContain('no level "debug" here');
  expect(debugReports[0]).not.toContain('retitled');
  expect(debugReports[0]!.length).toBeLessThan(500);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the codes a terminal acts on are what this looks for.
  expect(debugReports[0]).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
}, 90_000);
