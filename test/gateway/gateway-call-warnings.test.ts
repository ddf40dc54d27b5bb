/**
 * What `mcp-host tools call` prints as it goes (here: a call sent once more after its server went away, as the tool is
 * read-only and idempotent on a trusted server, or after it timed out) a client of `mcp-host serve` hears during its
 * call as a log message of level `warning` from the logger `mcp-host`, unless it set a more severe level with
 * `logging/setLevel`. Over stdio, stateful and stateless Streamable HTTP, the official v2 SDK client in front of the
 * built CLI, real fixture servers behind it: one that exits in the middle of a call while a marker file is missing,
 * one that never answers its first call.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFixtureServersConfig } from '../helpers/fixture-servers-config.js';
import { waitUntil } from '../helpers/gateway-process.js';
import { temporaryDirectory } from '../helpers/project.js';
import { connectStdioGateway } from '../helpers/stdio-gateway.js';
import { textOf } from '../helpers/text-of.js';
import { type ServedClient, servedOverHttp } from './served-client.js';

const RETRY_WARNING = {
  level: 'warning',
  logger: 'mcp-host',
  // How the server went, which the gateway's stderr reports and its client does not read.
  data: 'crashy__read_once_exits lost its server; trying once more, as the tool is marked safe to retry (server "crashy" exited with code 5; stderr tail:\nexiting once with code 5 in the middle of a call)',
};

const FLAKY_TIMEOUT_MS = 2_000;
const TIMEOUT_WARNING = {
  level: 'warning',
  logger: 'mcp-host',
  data: `flaky__lookup timed out; trying once more, as the tool is marked safe to retry (the tool did not answer within its timeout of ${FLAKY_TIMEOUT_MS} ms; the server was sent notifications/cancelled)`,
};

async function configIn(directory: string, gateway: Record<string, unknown> = {}): Promise<string> {
  return writeFixtureServersConfig(
    {
      crashy: { file: 'crash-mid-call.mjs', env: { EXITED_ONCE_FILE: join(directory, 'exited-once') } },
      forwarding: { file: 'forwarding.mjs' },
      // Its `lookup` (read-only and idempotent) never answers its first call: it times out and is sent once more.
      flaky: { file: 'idempotent-flaky.mjs', timeoutMs: FLAKY_TIMEOUT_MS },
    },
    { fields: { gateway: { requestsPerMinute: 10_000, ...gateway } } },
  );
}

function listeningClient(logs: ServedClient['logs']): Client {
  const client = new Client({ name: 'call-warnings-test', version: '1.0.0' });
  client.setNotificationHandler('notifications/message', (notification) => {
    logs.push(notification.params);
  });
  return client;
}

async function overStdio(): Promise<ServedClient> {
  const directory = await temporaryDirectory('mcp-host-call-warnings-');
  const logs: ServedClient['logs'] = [];
  const client = listeningClient(logs);
  await connectStdioGateway(client, await configIn(directory), directory);
  return { client, logs, marker: join(directory, 'exited-once'), close: () => client.close() };
}

function overHttp(gatewaySettings: Record<string, unknown>): () => Promise<ServedClient> {
  return () =>
    servedOverHttp('mcp-host-call-warnings-', listeningClient, (directory) => configIn(directory, gatewaySettings));
}

describe.each([
  ['stdio', overStdio],
  ['stateful Streamable HTTP', overHttp({})],
  ['stateless Streamable HTTP', overHttp({ stateless: true })],
] as const)('a client of mcp-host serve over %s, whose call is sent once more', (_transport, serve) => {
  let served: ServedClient;
  beforeAll(async () => {
    served = await serve();
  }, 90_000);
  afterAll(async () => {
    await served?.close();
  });

  it('hears the warning tools call prints, on the call’s stream, unless it asked for more severe levels only', async () => {
    const first = await served.client.callTool({ name: 'crashy__read_once_exits', arguments: {} });
    expect(textOf(first)).toMatch(/^read \d+$/);
    await waitUntil(() => served.logs.length > 0, 'the warning of the call sent once more');
    expect(served.logs).toEqual([RETRY_WARNING]);

    await served.client.setLoggingLevel('error');
    // The server exits in the middle of the next call too, which is sent once more.
    await rm(served.marker);
    const second = await served.client.callTool({ name: 'crashy__read_once_exits', arguments: {} });
    expect(textOf(second)).toMatch(/^read \d+$/);
    expect(textOf(second)).not.toBe(textOf(first));
    // A later call's error message comes after anything the earlier call's stream carried.
    await served.client.callTool({ name: 'forwarding__log', arguments: { level: 'error', message: 'later' } });
    await waitUntil(() => served.logs.some((entry) => entry.data === 'later'), 'the later call’s log message');
    expect(served.logs.map((entry) => entry.data)).toEqual([RETRY_WARNING.data, 'later']);
  }, 90_000);

  it('hears that its call timed out and is sent once more, in the host’s words', async () => {
    served.logs.length = 0;
    await served.client.setLoggingLevel('warning');
    const answer = await served.client.callTool({ name: 'flaky__lookup', arguments: { key: 'k' } });
    expect(textOf(answer)).toBe('value of k (call 2)');
    await waitUntil(() => served.logs.length > 0, 'the warning of the call that timed out');
    expect(served.logs).toEqual([TIMEOUT_WARNING]);
  }, 90_000);
});
