/**
 * `mcp-host serve` reached by a client nobody here wrote: `@ai-sdk/mcp` (the Vercel AI SDK's MCP client), over
 * stdio and over Streamable HTTP. It needs Node 22, so it runs on the binary of the nested tools/node22 package
 * (installed on first use, as for the conformance runner). It lists and calls tools (directly and through the
 * AI SDK's tool set), answers an "ask" through elicitation, cancels a call, which reaches the upstream server, and
 * sees a tool whose definition changed upstream withheld.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditRecords } from '../helpers/audit-records.js';
import { bundledFixture } from '../helpers/bundled-fixture.js';
import { startGatewayProcess, waitUntil } from '../helpers/gateway-process.js';
import { cliPath, exampleServer, repoRoot, temporaryDirectory, writeConfig } from '../helpers/project.js';

const driver = join(repoRoot, 'test', 'gateway', 'clients', 'ai-sdk-client.mjs');
const recorder = bundledFixture(join(repoRoot, 'test', 'fixtures', 'faults', 'recorder.mjs'));
const rugPullServer = bundledFixture(join(repoRoot, 'test', 'fixtures', 'consent', 'rug-pull-server.mjs'));
const TOKEN = 'an-ai-sdk-test-token-of-enough-length';

let node22: string;
let node22Packages: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  const tools = await import('../../tools/node22.mjs');
  node22 = tools.ensureNode22(() => undefined).binary;
  node22Packages = tools.node22PackageDirectory;
}, 300_000);

afterAll(async () => {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  }
});

async function setUp(): Promise<{ config: string; stateDir: string; eventsLog: string }> {
  const stateDir = await temporaryDirectory('mcp-host-ai-sdk-state-');
  const eventsLog = join(stateDir, 'events.log');
  const config = await writeConfig({
    mcpServers: {
      calculator: { command: process.execPath, args: [exampleServer('calculator')], trust: 'trusted' },
      recorder: { command: process.execPath, args: [recorder], env: { EVENT_LOG: eventsLog }, trust: 'trusted' },
      rug: { command: process.execPath, args: [rugPullServer], trust: 'trusted' },
    },
    permissions: {
      allow: ['calculator__add_numbers', 'recorder__hang', 'rug__mutate', 'rug__fetch_data'],
      ask: ['calculator__multiply'],
    },
  });
  return { config, stateDir, eventsLog };
}

function runDriver(options: Record<string, unknown>): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const child = spawn(node22, [driver, JSON.stringify({ node22Packages, ...options })], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk) => {
      stdout += String(chunk);
    });
    child.stderr?.on('data', (chunk) => {
      stderr += String(chunk);
    });
    child.on('close', (code) => {
      const line = stdout.split('\n').find((candidate) => candidate.startsWith('RESULT '));
      if (code === 0 && line) resolve(JSON.parse(line.slice('RESULT '.length)));
      else reject(new Error(`the @ai-sdk/mcp driver exited with ${code}:\n${stderr}\n${stdout}`));
    });
  });
}

async function expectTheSameBehaviour(result: Record<string, unknown>, eventsLog: string, stateDir: string) {
  expect(result.node).toMatch(/^v22\./);
  expect(result.names).toEqual(expect.arrayContaining(['calculator__add_numbers', 'recorder__hang']));
  expect(result.added).toContain('5');
  expect(result.viaToolSet).toContain('9');
  expect(result.multiplied).toContain('42');
  expect((result.asked as string[])[0]).toContain('multiply');
  expect(result.cancelled).toMatch(/^rejected/);
  // The changed tool was listed before, is withheld after, and a call to it does not reach the server.
  expect(result.listedBeforeChange).toBe(true);
  expect(result.withheld).toBe(true);
  expect(result.changedCallAnswer).toMatchObject({ isError: true });
  // The gateway told the upstream server, which wrote it down.
  await waitUntil(async () => (await readFile(eventsLog, 'utf8')).includes('cancelled'), 'the server to be told');
  expect(await readFile(eventsLog, 'utf8')).toContain('cancelled');
  const audit = await auditRecords(stateDir);
  expect(audit.find((record) => record.type === 'tool-call' && record.tool === 'calculator__multiply')).toMatchObject({
    decision: 'allow',
    approver: 'gateway-client',
    client: expect.objectContaining({ name: 'ai-sdk-test-client' }),
  });
}

describe('@ai-sdk/mcp in front of mcp-host serve', () => {
  it('works over stdio', async () => {
    const { config, stateDir, eventsLog } = await setUp();
    const result = await runDriver({
      transport: 'stdio',
      node: process.execPath,
      args: [cliPath, 'serve', '--config', config, '--state-dir', stateDir],
      eventsLog,
    });
    await expectTheSameBehaviour(result, eventsLog, stateDir);
  }, 120_000);

  it('works over Streamable HTTP', async () => {
    const { config, stateDir, eventsLog } = await setUp();
    const gateway = await startGatewayProcess(['--config', config, '--state-dir', stateDir], {
      MCP_HOST_GATEWAY_TOKEN: TOKEN,
    });
    try {
      const result = await runDriver({ transport: 'http', url: gateway.url, token: TOKEN, eventsLog });
      await expectTheSameBehaviour(result, eventsLog, stateDir);
    } finally {
      await gateway.stop();
    }
  }, 120_000);
});
