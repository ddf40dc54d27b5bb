/**
 * `mcp-host serve` as MCP clients use it: the built CLI started as a child process, reached by the official v2 SDK
 * client over stdio and over Streamable HTTP. Calls pass the host's duties (rules, consent through elicitation,
 * audit with the client's identity, cancellation forwarded upstream).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { auditRecords } from '../helpers/audit-records.js';
import { bearerTransport } from '../helpers/bearer-transport.js';
import { bundledFixture } from '../helpers/bundled-fixture.js';
import { trustedCalculator } from '../helpers/calculator-config.js';
import { startGatewayProcess, waitUntil } from '../helpers/gateway-process.js';
import { cliPath, repoRoot, temporaryDirectory, writeConfig } from '../helpers/project.js';
import { textOf } from '../helpers/text-of.js';

const recorder = bundledFixture(join(repoRoot, 'test', 'fixtures', 'faults', 'recorder.mjs'));

interface Opened {
  client: Client;
  close(): Promise<void>;
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

async function baseConfig(extra: Record<string, unknown> = {}): Promise<{ config: string; stateDir: string }> {
  const stateDir = await temporaryDirectory('mcp-host-gateway-state-');
  const config = await writeConfig({
    mcpServers: {
      calculator: trustedCalculator,
      recorder: {
        command: process.execPath,
        args: [recorder],
        env: { EVENT_LOG: join(stateDir, 'events.log') },
        trust: 'trusted',
      },
    },
    ...extra,
  });
  return { config, stateDir };
}

type ElicitationAnswer = { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, string> };

async function openStdio(
  args: string[],
  options: { elicit?: (message: string) => ElicitationAnswer } = {},
): Promise<Opened> {
  const client = new Client(
    { name: 'gateway-test-client', version: '9.9.9' },
    { capabilities: options.elicit ? { elicitation: { form: {} } } : {} },
  );
  if (options.elicit) {
    const elicit = options.elicit;
    client.setRequestHandler('elicitation/create', async (request) => elicit(request.params.message));
  }
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cliPath, 'serve', ...args],
    stderr: 'pipe',
  });
  await client.connect(transport);
  return { client, close: () => client.close() };
}

/** The audit's tool-call records of `tool`, once `count` of them are written (the gateway stays open). */
async function toolCallRecords(stateDir: string, tool: string, count = 1): Promise<Array<Record<string, unknown>>> {
  let calls: Array<Record<string, unknown>> = [];
  await waitUntil(async () => {
    calls = (await auditRecords(stateDir)).filter((record) => record.type === 'tool-call' && record.tool === tool);
    return calls.length >= count;
  }, `${count} audited call(s) of ${tool}`);
  return calls;
}

/** Asked before `calculator__multiply`; `recorder__hang` allowed outright. */
const stdioPermissions = { permissions: { ask: ['calculator__multiply'], allow: ['recorder__hang'] } };

describe('mcp-host serve --stdio, to a client that cannot answer elicitation', () => {
  let stateDir: string;
  let opened: Opened | undefined;

  beforeAll(async () => {
    const base = await baseConfig(stdioPermissions);
    stateDir = base.stateDir;
    opened = await openStdio(['--config', base.config, '--state-dir', stateDir]);
  }, 60_000);

  afterAll(async () => {
    await opened?.close();
  });

  it('lists every server under namespaced names and calls through the host, audited with the client', async () => {
    const client = opened!.client;
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['calculator__add_numbers', 'recorder__ping']));

    const result = await client.callTool({ name: 'calculator__add_numbers', arguments: { a: 5, b: 7 } });
    expect(textOf(result)).toContain('12');
    const unknown = await client.callTool({ name: 'nope__nothing', arguments: {} });
    expect(unknown.isError).toBe(true);

    const [call] = await toolCallRecords(stateDir, 'calculator__add_numbers');
    expect(call).toMatchObject({
      decision: 'allow',
      outcome: 'ok',
      client: { name: 'gateway-test-client', version: '9.9.9', session: 'stdio' },
    });
  }, 60_000);

  it('denies with the reason when the client cannot be asked', async () => {
    const result = await opened!.client.callTool({ name: 'calculator__multiply', arguments: { a: 1, b: 2 } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('does not support elicitation');
  }, 60_000);

  it('forwards cancellation to the upstream server', async () => {
    const controller = new AbortController();
    const call = opened!.client.callTool({ name: 'recorder__hang', arguments: {} }, { signal: controller.signal });
    const events = join(stateDir, 'events.log');
    await waitUntil(
      async () => (await readFile(events, 'utf8').catch(() => '')).includes(' hang '),
      'the upstream server to record the hanging call',
    );
    controller.abort(new Error('user cancelled'));
    await expect(call).rejects.toThrow();
    await waitUntil(
      async () => (await readFile(events, 'utf8')).includes('cancelled'),
      'the upstream server to record the cancellation',
    );
    const [record] = await toolCallRecords(stateDir, 'recorder__hang');
    expect(record).toMatchObject({ outcome: 'cancelled', client: { name: 'gateway-test-client' } });
  }, 60_000);
});

describe('mcp-host serve --stdio --profile, to a client that answers elicitation', () => {
  let stateDir: string;
  let opened: Opened | undefined;
  const asked: string[] = [];
  let answer: ElicitationAnswer = { action: 'accept', content: { decision: 'allow-once' } };

  beforeAll(async () => {
    const base = await baseConfig({
      ...stdioPermissions,
      profiles: { maths: { servers: ['calculator'], tools: ['calculator__add_*', 'calculator__multiply'] } },
    });
    stateDir = base.stateDir;
    opened = await openStdio(['--config', base.config, '--state-dir', stateDir, '--profile', 'maths'], {
      elicit: (message) => {
        asked.push(message);
        return answer;
      },
    });
  }, 60_000);

  afterAll(async () => {
    await opened?.close();
  });

  it('asks the client through elicitation when a rule asks, and runs only what was allowed', async () => {
    const client = opened!.client;
    const allowed = await client.callTool({ name: 'calculator__multiply', arguments: { a: 6, b: 7 } });
    expect(allowed.isError).toBeFalsy();
    expect(textOf(allowed)).toContain('42');
    expect(asked[0]).toContain('multiply');
    expect(asked[0]).toContain('"calculator"');

    answer = { action: 'accept', content: { decision: 'deny' } };
    const denied = await client.callTool({ name: 'calculator__multiply', arguments: { a: 1, b: 2 } });
    expect(denied.isError).toBe(true);
    expect(textOf(denied)).toContain('denied');

    answer = { action: 'decline' };
    const declined = await client.callTool({ name: 'calculator__multiply', arguments: { a: 1, b: 2 } });
    expect(declined.isError).toBe(true);
    expect(asked).toHaveLength(3);

    const calls = await toolCallRecords(stateDir, 'calculator__multiply', 3);
    expect(calls.map((record) => [record.decision, record.approver])).toEqual([
      ['allow', 'gateway-client'],
      ['deny', 'gateway-client'],
      ['deny', 'gateway-client'],
    ]);
  }, 60_000);

  it('serves only the tools of the chosen profile', async () => {
    const client = opened!.client;
    const names = (await client.listTools()).tools.map((tool) => tool.name).sort();
    expect(names).toEqual(['calculator__add_numbers', 'calculator__multiply']);
    const outside = await client.callTool({ name: 'calculator__divide', arguments: { a: 4, b: 2 } });
    expect(outside.isError).toBe(true);
  }, 60_000);
});

describe('mcp-host serve --http', () => {
  const token = 'a-test-token-of-enough-length';

  it('guards the endpoint and serves an authenticated client, per profile path', async () => {
    const { config, stateDir } = await baseConfig({ profiles: { maths: { servers: ['calculator'] } } });
    const gateway = await startGatewayProcess(['--config', config, '--state-dir', stateDir], {
      MCP_HOST_GATEWAY_TOKEN: token,
    });
    cleanups.push(gateway.stop);
    const base = new URL(gateway.url);
    const initialize = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

    const health = await fetch(new URL('/health', base));
    expect(health.status).toBe(200);
    // A connection no token has come on is kept only for its next request's headers, and says so.
    expect(health.headers.get('keep-alive')).toBe('timeout=10');
    expect((await fetch(new URL('/ready', base))).status).toBe(200);
    expect((await fetch(gateway.url, { method: 'POST', headers, body: initialize })).status).toBe(401);
    const wrong = await fetch(gateway.url, {
      method: 'POST',
      headers: { ...headers, authorization: 'Bearer not-the-token-at-all' },
      body: initialize,
    });
    expect(wrong.status).toBe(401);
    const foreign = await fetch(gateway.url, {
      method: 'POST',
      headers: { ...headers, authorization: `Bearer ${token}`, origin: 'https://evil.example' },
      body: initialize,
    });
    expect(foreign.status).toBe(403);
    expect(await foreign.text()).toContain('allowedOrigins');
    const huge = await fetch(gateway.url, {
      method: 'POST',
      headers: { ...headers, authorization: `Bearer ${token}` },
      body: 'x'.repeat(5 * 1024 * 1024),
    });
    expect(huge.status).toBe(413);
    // Once a token has come, idle connections are kept past common load-balancer idle timeouts (60 s), not Node's
    // 5 s: clients pool on this hint, and a server closing first resets the request a busy client sends on the
    // closing socket.
    expect(huge.headers.get('keep-alive')).toBe('timeout=65');
    const unknownProfile = await fetch(`${gateway.url}/nosuch`, {
      method: 'POST',
      headers: { ...headers, authorization: `Bearer ${token}` },
      body: initialize,
    });
    expect(unknownProfile.status).toBe(404);

    const client = new Client({ name: 'http-test-client', version: '1.0.0' });
    const transport = bearerTransport(`${gateway.url}/maths`, token);
    await client.connect(transport);
    cleanups.push(() => client.close());
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('calculator__add_numbers');
    expect(names.some((name) => name.startsWith('recorder__'))).toBe(false);
    const result = await client.callTool({ name: 'calculator__add_numbers', arguments: { a: 20, b: 22 } });
    expect(textOf(result)).toContain('42');
    await client.close();

    const call = (await auditRecords(stateDir)).find((record) => record.type === 'tool-call');
    expect(call).toMatchObject({ client: { name: 'http-test-client', principal: 'default' } });
  }, 90_000);
});
