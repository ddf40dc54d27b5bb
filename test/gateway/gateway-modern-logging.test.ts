/**
 * A 2026-07-28 client of `mcp-host serve` has no session and no `logging/setLevel`: each request asks for log
 * messages in its own `_meta` (`io.modelcontextprotocol/logLevel`). It hears a server's log messages and the host's
 * call warnings on a request that asks for them, at that level or more severe, and none on a request that does not
 * ask; a request naming no level of the specification is refused, as the SDK refuses it. Over stdio and Streamable
 * HTTP, the official v2 SDK client pinned to that revision in front of the built CLI, real fixture servers behind it:
 * one that logs as told, one that exits in the middle of a call while a marker file is missing.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Client, LOG_LEVEL_META_KEY } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFixtureServersConfig } from '../helpers/fixture-servers-config.js';
import { waitUntil } from '../helpers/gateway-process.js';
import { bundledCliPath, temporaryDirectory } from '../helpers/project.js';
import { textOf } from '../helpers/text-of.js';
import { type ServedClient, servedOverHttp } from './served-client.js';

const RETRY_WARNING =
  'crashy__read_once_exits lost its server; trying once more, as the tool is marked safe to retry (server "crashy" exited with code 5; stderr tail:\nexiting once with code 5 in the middle of a call)';

function modernClient(logs: ServedClient['logs']): Client {
  const client = new Client(
    { name: 'modern-logging-test', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  client.setNotificationHandler('notifications/message', (notification) => {
    logs.push(notification.params);
  });
  return client;
}

async function configIn(directory: string): Promise<string> {
  return writeFixtureServersConfig(
    {
      crashy: { file: 'crash-mid-call.mjs', env: { EXITED_ONCE_FILE: join(directory, 'exited-once') } },
      forwarding: { file: 'forwarding.mjs' },
    },
    { fields: { gateway: { requestsPerMinute: 10_000 } } },
  );
}

async function overStdio(): Promise<ServedClient> {
  const directory = await temporaryDirectory('mcp-host-modern-logging-');
  const logs: ServedClient['logs'] = [];
  const client = modernClient(logs);
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [bundledCliPath(), 'serve', '--stdio', '--config', await configIn(directory), '--state-dir', directory],
      stderr: 'pipe',
    }),
  );
  return { client, logs, marker: join(directory, 'exited-once'), close: () => client.close() };
}

function overHttp(): Promise<ServedClient> {
  return servedOverHttp('mcp-host-modern-logging-', modernClient, configIn);
}

/** The request's `_meta` asking for log messages of `level` and more severe; none without a level. */
const asking = (level?: string) => (level === undefined ? {} : { _meta: { [LOG_LEVEL_META_KEY]: level } });

describe.each([
  ['stdio', overStdio],
  ['Streamable HTTP', overHttp],
] as const)('a 2026-07-28 client of mcp-host serve over %s', (_transport, serve) => {
  let served: ServedClient;
  beforeAll(async () => {
    served = await serve();
  }, 90_000);
  afterAll(async () => {
    await served?.close();
  });

  const log = (level: string, message: string, asked?: string) =>
    served.client.callTool({ name: 'forwarding__log', arguments: { level, message }, ...asking(asked) });

  it('hears a server’s log messages on a request that asks for them, at its level or more severe', async () => {
    served.logs.length = 0;
    expect(served.client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    await log('error', 'asked for none');
    await log('info', 'below the level asked', 'warning');
    await log('warning', 'at the level asked', 'warning');
    await log('debug', 'asked for all', 'debug');
    await waitUntil(() => served.logs.some((entry) => entry.data === 'asked for all'), 'the last call’s message');
    // A call's messages come on its stream before its answer: any of the earlier calls' would have come first.
    expect(served.logs).toEqual([
      { level: 'warning', logger: 'forwarding/fixture', data: 'at the level asked' },
      { level: 'debug', logger: 'forwarding/fixture', data: 'asked for all' },
    ]);
  }, 60_000);

  it('hears the host’s warning of a call sent once more only on a request that asks for that level', async () => {
    served.logs.length = 0;
    const calls: string[] = [];
    for (const asked of [undefined, 'error', 'warning']) {
      // The server exits in the middle of each of these calls, which is sent once more.
      await rm(served.marker, { force: true });
      const answer = await served.client.callTool({ name: 'crashy__read_once_exits', arguments: {}, ...asking(asked) });
      calls.push(textOf(answer));
    }
    // Each answered by the server started again after its exit.
    for (const answer of calls) expect(answer).toMatch(/^read \d+$/);
    expect(new Set(calls).size).toBe(3);
    await waitUntil(() => served.logs.length > 0, 'the warning of the call that asked for warnings');
    await log('error', 'later', 'error');
    await waitUntil(() => served.logs.some((entry) => entry.data === 'later'), 'the later call’s message');
    expect(served.logs.map((entry) => [entry.logger, entry.data])).toEqual([
      ['mcp-host', RETRY_WARNING],
      ['forwarding/fixture', 'later'],
    ]);
  }, 90_000);

  it('is refused a request whose _meta names no log level of the specification, as the SDK refuses it', async () => {
    served.logs.length = 0;
    await expect(log('error', 'at a level of no name', 'loud')).rejects.toThrow(/logLevel|Invalid _meta/);
    await log('error', 'after the refusal', 'error');
    await waitUntil(() => served.logs.length > 0, 'the message of the call after the refusal');
    expect(served.logs.map((entry) => entry.data)).toEqual(['after the refusal']);
  }, 60_000);
});
