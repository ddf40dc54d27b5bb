/**
 * What a client of `mcp-host serve` asks of a server's session beyond calls — the log level — is kept when that
 * server restarts, over stdio and Streamable HTTP, with the official v2 SDK client in front of the built CLI and a
 * real fixture server behind it that remembers only what its own session was asked.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { Client, type LoggingMessageNotification, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitUntil } from '../helpers/gateway-process.js';
import { cliPath, fixtureServer, temporaryDirectory, writeConfig } from '../helpers/project.js';

const TOKEN = 'a-subscriptions-test-token-of-enough-length';

interface Gateway {
  client: Client;
  logs: LoggingMessageNotification['params'][];
  /** Another client of the same gateway (HTTP only: stdio has one client). */
  connectAnother?: () => Promise<Client>;
  close(): Promise<void>;
}

function textOf(result: unknown): string {
  const content = (result as { content: Array<{ type: string; text?: string }> }).content;
  return content.map((part) => part.text ?? '').join('');
}

function config(): Promise<string> {
  return writeConfig({
    mcpServers: {
      memory: { command: process.execPath, args: [fixtureServer('session-memory.mjs')], trust: 'trusted' },
    },
    permissions: { allow: ['memory__*'] },
  });
}

function recordingClient(gateway: Pick<Gateway, 'logs'>, name = 'subscriptions-test-client'): Client {
  const client = new Client({ name, version: '1.0.0' });
  client.setNotificationHandler('notifications/message', (notification) => {
    gateway.logs.push(notification.params);
  });
  return client;
}

async function startStdio(): Promise<Gateway> {
  const stateDir = await temporaryDirectory('mcp-host-subscriptions-state-');
  const gateway: Gateway = { logs: [], client: undefined as never, close: async () => {} };
  gateway.client = recordingClient(gateway);
  await gateway.client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [cliPath, 'serve', '--config', await config(), '--state-dir', stateDir],
      stderr: 'pipe',
    }),
  );
  gateway.close = () => gateway.client.close();
  return gateway;
}

async function startHttp(): Promise<Gateway> {
  const stateDir = await temporaryDirectory('mcp-host-subscriptions-state-');
  const child: ChildProcess = spawn(
    process.execPath,
    [cliPath, 'serve', '--http', '0', '--config', await config(), '--state-dir', stateDir],
    { env: { ...process.env, MCP_HOST_GATEWAY_TOKEN: TOKEN }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr += String(chunk);
  });
  const clients: Client[] = [];
  const stop = async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  };
  try {
    await waitUntil(() => /serving (http:\S+)/.test(stderr) || child.exitCode !== null, 'the gateway to listen');
    const url = /serving (http:\S+)/.exec(stderr)?.[1];
    if (url === undefined) throw new Error(`the gateway did not start:\n${stderr}`);
    const connect = async (client: Client) => {
      clients.push(client);
      await client.connect(
        new StreamableHTTPClientTransport(new URL(url), {
          requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
        }),
      );
      return client;
    };
    const gateway: Gateway = { logs: [], client: undefined as never, close: stop };
    gateway.client = await connect(recordingClient(gateway));
    gateway.connectAnother = () => connect(recordingClient({ logs: [] }, 'another-test-client'));
    return gateway;
  } catch (error) {
    await stop();
    throw error;
  }
}

async function serverPid(client: Client): Promise<number> {
  return Number(textOf(await client.callTool({ name: 'memory__pid', arguments: {} })));
}

/** Kills the fixture server behind the gateway and waits until the gateway has started it again. */
async function restartUpstream(client: Client): Promise<void> {
  const before = await serverPid(client);
  process.kill(before, 'SIGKILL');
  // Calls fail while the gateway notices the crash; the first one after it starts the server again.
  await waitUntil(async () => {
    const after = await serverPid(client).catch(() => Number.NaN);
    return Number.isInteger(after) && after !== before;
  }, 'the server to be started again');
}

describe.each([
  ['stdio', startStdio],
  ['Streamable HTTP', startHttp],
] as const)('mcp-host serve over %s', (_transport, start) => {
  let gateway: Gateway;
  beforeAll(async () => {
    gateway = await start();
  }, 60_000);
  afterAll(async () => {
    await gateway?.close();
  });

  it('keeps the client’s log level when the server restarts', async () => {
    await gateway.client.setLoggingLevel('error');
    expect(textOf(await gateway.client.callTool({ name: 'memory__log', arguments: {} }))).toBe('level error');
    await restartUpstream(gateway.client);
    // The server itself says which level its new session was given.
    expect(textOf(await gateway.client.callTool({ name: 'memory__log', arguments: {} }))).toBe('level error');
    await waitUntil(() => gateway.logs.some((entry) => entry.data === 'error-line'), 'the error log message');
  }, 60_000);
});
