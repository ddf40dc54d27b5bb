/**
 * Against the published reference server that exercises every protocol feature, over stdio, through the host
 * library: once the client declares roots, sampling and elicitation, every tool is listed, and each feature's
 * result reaches the model in the right shape (asserted in the requests the scripted model received).
 */
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryAuditSink, type MemoryAuditSink } from '../../src/audit/audit-sink.js';
import type { ServerLogEntry } from '../../src/client-features/server-log.js';
import { createHost, type Host } from '../../src/host/create-host.js';
import { TrustStore } from '../../src/policy/trust-store.js';
import { createYesApprover } from '../../src/policy/yes-approver.js';
import type { ModelRequest } from '../../src/providers/types.js';
import type { Script } from '../../src/testing/script-types.js';
import { createScriptedProvider, type ScriptedProvider } from '../../src/testing/scripted-provider.js';
import { hostConfig, stdioServer } from '../helpers/configs.js';
import { temporaryDirectory } from '../helpers/project.js';
import { createRecordingApprover, lastToolResults, packageBin, type RecordingApprover, textOf } from './helpers.js';

const everything = packageBin('@modelcontextprotocol/server-everything');
const SAMPLED_ANSWER = 'Sampled: servers never sleep.';

/** One scenario per test prompt (a regular expression): call the tool(s), then report what came back. */
function toolScenario(prompt: string, ...calls: Array<{ name: string; arguments?: Record<string, unknown> }>) {
  return {
    match: `^${prompt}$`,
    turns: [...calls.map((call) => ({ toolCalls: [call] })), { text: 'Result: {{lastToolResult}}' }],
  };
}

const script: Script = {
  fallbackText: 'no scenario',
  scenarios: [
    // What the server's sampling tool asks the host's model.
    { match: '^Resource trigger-sampling-request context', turns: [{ text: SAMPLED_ANSWER }] },
    toolScenario('image', { name: 'everything__get-tiny-image' }),
    toolScenario(
      'links',
      { name: 'everything__get-resource-links', arguments: { count: 2 } },
      { name: 'mcp-host__everything__read_resource', arguments: { uri: 'demo://resource/dynamic/text/2' } },
    ),
    toolScenario('embedded', {
      name: 'everything__get-resource-reference',
      arguments: { resourceType: 'Text', resourceId: 3 },
    }),
    toolScenario('structured', { name: 'everything__get-structured-content', arguments: { location: 'Chicago' } }),
    toolScenario('annotated', {
      name: 'everything__get-annotated-message',
      arguments: { messageType: 'error', includeImage: true },
    }),
    toolScenario('progress', {
      name: 'everything__trigger-long-running-operation',
      arguments: { duration: 1, steps: 4 },
    }),
    toolScenario('logging', { name: 'everything__toggle-simulated-logging' }),
    toolScenario('sampling', {
      name: 'everything__trigger-sampling-request',
      arguments: { prompt: 'why are servers awake?', maxTokens: 40 },
    }),
    toolScenario('form', { name: 'everything__trigger-elicitation-request' }),
    toolScenario('url (\\S+)', {
      name: 'everything__trigger-url-elicitation',
      arguments: { url: '{{match.1}}', message: 'Sign in to continue' },
    }),
    toolScenario('roots', { name: 'everything__get-roots-list' }),
    toolScenario('list resources', { name: 'mcp-host__everything__list_resources' }),
  ],
};

let host: Host;
let provider: ScriptedProvider;
let approver: RecordingApprover;
let audit: MemoryAuditSink;
let rootFolder: string;
let logFolder: string;
const opened: string[] = [];
const logs: ServerLogEntry[] = [];
const progress: Array<{ tool: string; progress: number; total?: number }> = [];
let pageServer: Server;
let pageRequests = 0;

/** Runs one prompt; returns the requests the model received for it (sampling requests left out). */
async function run(prompt: string): Promise<ModelRequest[]> {
  const before = provider.requests.length;
  const result = await host.run(prompt);
  expect(result.stopReason).toBe('end');
  return provider.requests.slice(before).filter((request) => request.tools.length > 0);
}

async function waitFor(check: () => boolean, what: string, refresh?: () => Promise<void>): Promise<void> {
  for (let waited = 0; ; waited += 20) {
    await refresh?.();
    if (check()) return;
    if (waited > 10_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

beforeAll(async () => {
  pageServer = createServer((_request, response) => {
    pageRequests += 1;
    response.end('consent page');
  });
  await new Promise<void>((resolve) => pageServer.listen(0, '127.0.0.1', resolve));
  rootFolder = await temporaryDirectory('mcp-host-roots-');
  logFolder = await temporaryDirectory('mcp-host-logs-');
  provider = createScriptedProvider(script);
  approver = createRecordingApprover();
  audit = createMemoryAuditSink();
  host = await createHost({
    config: hostConfig([stdioServer('everything', [everything, 'stdio'], { trust: 'trusted', timeoutMs: 20_000 })]),
    provider,
    stream: false,
    approver: createYesApprover(),
    trustStore: TrustStore.inMemory(),
    auditSink: audit,
    stateDir: await temporaryDirectory('mcp-host-state-'),
    roots: [rootFolder],
    clientRequestApprover: approver,
    onServerLog: (entry) => logs.push(entry),
    onProgress: (update) => progress.push(update),
    clientFeatures: {
      serverLogDirectory: logFolder,
      openUrl: async (url) => {
        opened.push(url);
      },
    },
  });
}, 60_000);

afterAll(async () => {
  await host?.close();
  await new Promise<void>((resolve) => pageServer?.close(() => resolve()));
});

describe('server-everything over stdio', () => {
  it('lists every tool once roots, sampling and elicitation are declared, plus the resource tools', async () => {
    await run('image');
    const names = host.catalog().entries.map((entry) => entry.name);
    for (const tool of [
      'echo',
      'get-annotated-message',
      'get-env',
      'get-resource-links',
      'get-resource-reference',
      'get-structured-content',
      'get-sum',
      'get-tiny-image',
      'gzip-file-as-resource',
      'toggle-simulated-logging',
      'toggle-subscriber-updates',
      'trigger-long-running-operation',
      // Registered only for a client that declares roots, elicitation (form and URL) and sampling.
      'get-roots-list',
      'trigger-elicitation-request',
      'trigger-url-elicitation',
      'trigger-sampling-request',
    ]) {
      expect(names).toContain(`everything__${tool}`);
    }
    // It requires MCP tasks, which the host does not run: withheld, with the reason.
    expect(names).not.toContain('everything__simulate-research-query');
    expect(host.servers()[0]?.unsupportedTools?.map((tool) => tool.tool)).toContain('simulate-research-query');
    expect(names).toContain('mcp-host__everything__list_resources');
    expect(names).toContain('mcp-host__everything__read_resource');
    expect(host.servers()[0]?.toolCount).toBeGreaterThanOrEqual(17);
  });

  it('passes an image on as an image, between its texts', async () => {
    const requests = await run('image');
    const [result] = lastToolResults(requests[1]);
    expect(result?.isError).toBe(false);
    expect(result?.content.map((part) => part.type)).toEqual(['text', 'image', 'text']);
    expect(result?.content[1]).toMatchObject({ type: 'image', mimeType: 'image/png' });
  });

  it('describes resource links, and the model follows one with the read tool', async () => {
    const requests = await run('links');
    const links = textOf(lastToolResults(requests[1])[0]);
    expect(links).toContain('[resource link: demo://resource/dynamic/blob/1 (text/plain) "Blob Resource 1"');
    expect(links).toContain('[resource link: demo://resource/dynamic/text/2 (text/plain) "Text Resource 2"');
    const [read] = lastToolResults(requests[2]);
    expect(read?.isError).toBe(false);
    expect(textOf(read)).toMatch(
      /^\[resource demo:\/\/resource\/dynamic\/text\/2 \(text\/plain\)\]\nResource 2: This is a plaintext resource/,
    );
  });

  it('lists resources and templates through the list tool', async () => {
    const requests = await run('list resources');
    const text = textOf(lastToolResults(requests[1])[0]);
    expect(text).toMatch(
      /^Resources of the server "everything" \(\d+ resources, 2 URI templates\); read one with mcp-host__everything__read_resource:/,
    );
    expect(text).toContain('demo://resource/static/document/architecture.md');
    expect(text).toContain('demo://resource/dynamic/text/{resourceId}');
  });

  it('gives an embedded text resource to the model with its URI and text', async () => {
    const requests = await run('embedded');
    const [result] = lastToolResults(requests[1]);
    expect(result?.content).toHaveLength(3);
    expect(textOf(result)).toMatch(
      /\[resource demo:\/\/resource\/dynamic\/text\/3 \(text\/plain\)\]\nResource 3: This is a plaintext resource/,
    );
  });

  it('sends structured content as JSON when the tool declares an output schema', async () => {
    const requests = await run('structured');
    const [result] = lastToolResults(requests[1]);
    expect(result?.content).toEqual([
      { type: 'text', text: JSON.stringify({ temperature: 36, conditions: 'Light rain / drizzle', humidity: 82 }) },
    ]);
  });

  it('passes an annotated message and its image on', async () => {
    const requests = await run('annotated');
    const [result] = lastToolResults(requests[1]);
    expect(result?.content[0]).toEqual({ type: 'text', text: 'Error: Operation failed' });
    expect(result?.content[1]).toMatchObject({ type: 'image', mimeType: 'image/png' });
  });

  it('reports progress of a long-running operation while it runs', async () => {
    const before = progress.length;
    const requests = await run('progress');
    const seen = progress.slice(before);
    // The last step's notification may race the result itself; the ones before it arrive while the call runs.
    expect(seen.length).toBeGreaterThanOrEqual(3);
    expect(seen).toEqual(
      [1, 2, 3, 4].slice(0, seen.length).map((step) => ({
        server: 'everything',
        tool: 'everything__trigger-long-running-operation',
        progress: step,
        total: 4,
      })),
    );
    expect(textOf(lastToolResults(requests[1])[0])).toBe(
      'Long running operation completed. Duration: 1 seconds, Steps: 4.',
    );
  });

  it('keeps server log messages in a per-server log and reports them as they arrive', async () => {
    const before = logs.length;
    const simulated = (entry: ServerLogEntry) => /[Ll]evel[- ]message/.test(String(entry.data));
    await run('logging');
    await waitFor(() => logs.slice(before).some(simulated), 'a simulated log message');
    // Turn simulated logging off again.
    await run('logging');
    expect(logs.slice(before).find(simulated)).toMatchObject({ server: 'everything', level: expect.any(String) });

    let file = '';
    const line = /^\d{4}-\d{2}-\d{2}T\S+ \w+ .*[Ll]evel[- ]message$/m;
    // The roots the host answered at start-up are logged by the server too (a moment after it starts).
    const rootsLine = / info \[everything-server\] Roots updated: 1 root\(s\) received from client$/m;
    await waitFor(
      () => line.test(file) && rootsLine.test(file),
      'the lines in the log file',
      async () => {
        file = await readFile(join(logFolder, 'everything.log'), 'utf8').catch(() => '');
      },
    );
  });

  it('answers the roots from the options, and tells the server when they change', async () => {
    let requests = await run('roots');
    expect(textOf(lastToolResults(requests[1])[0])).toContain(`URI: ${pathToFileURL(rootFolder).href}`);
    const otherRoot = await temporaryDirectory('mcp-host-other-root-');
    const before = logs.length;
    await host.roots.set([otherRoot]);
    await waitFor(
      () => logs.slice(before).some((entry) => String(entry.data).startsWith('Roots updated')),
      'the server to fetch the new roots',
    );
    requests = await run('roots');
    const text = textOf(lastToolResults(requests[1])[0]);
    expect(text).toContain(`URI: ${pathToFileURL(otherRoot).href}`);
    expect(text).not.toContain(pathToFileURL(rootFolder).href);
  });

  it('answers sampling with the host model when allowed: the approver saw the server and the full prompt', async () => {
    approver.answers.sampling = 'allow';
    const asked = approver.sampling.length;
    const samplingRequests = () => provider.requests.filter((request) => request.tools.length === 0);
    const sampledBefore = samplingRequests().length;
    const requests = await run('sampling');
    const question = approver.sampling[asked]!;
    expect(question.serverName).toBe('everything');
    expect(question.systemPrompt).toBe('You are a helpful test server.');
    expect(question.messages).toEqual([
      {
        role: 'user',
        content: { type: 'text', text: 'Resource trigger-sampling-request context: why are servers awake?' },
      },
    ]);
    expect(question.notApplied).toEqual(['temperature 0.7']);
    const sampled = samplingRequests().slice(sampledBefore);
    expect(sampled).toHaveLength(1);
    expect(sampled[0]).toMatchObject({ system: 'You are a helpful test server.', maxOutputTokens: 40 });
    const text = textOf(lastToolResults(requests[1])[0]);
    expect(text).toContain('LLM sampling result');
    expect(text).toContain(SAMPLED_ANSWER);
    expect(text).toContain('"model": "scripted"');
    const record = audit.records.findLast(
      (entry) => entry.type === 'tool-call' && entry.tool === 'sampling/createMessage',
    );
    expect(record).toMatchObject({ server: 'everything', decision: 'allow', approver: 'test', outcome: 'ok' });
  });

  it('declines sampling when the user denies it: the model is not asked and the server gets the rejection', async () => {
    approver.answers.sampling = 'deny';
    const sampledBefore = provider.requests.filter((request) => request.tools.length === 0).length;
    const requests = await run('sampling');
    expect(provider.requests.filter((request) => request.tools.length === 0)).toHaveLength(sampledBefore);
    const [result] = lastToolResults(requests[1]);
    expect(result?.isError).toBe(true);
    expect(textOf(result)).toContain('User rejected sampling request');
    const record = audit.records.findLast(
      (entry) => entry.type === 'tool-call' && entry.tool === 'sampling/createMessage',
    );
    expect(record).toMatchObject({ decision: 'deny', outcome: 'denied' });
  });

  it('fills a form: the approver gets every field with its default, omitted fields take their defaults', async () => {
    approver.answers.form = { action: 'accept', content: { name: 'Ada Lovelace', check: true } };
    const asked = approver.forms.length;
    const requests = await run('form');
    const form = approver.forms[asked]!;
    expect(form.serverName).toBe('everything');
    expect(form.message).toBe('Please provide inputs for the following fields:');
    expect(form.fields.find((field) => field.name === 'firstLine')).toMatchObject({
      kind: 'text',
      default: 'It was a dark and stormy night.',
    });
    expect(form.fields.find((field) => field.name === 'name')).toMatchObject({ required: true });
    const text = textOf(lastToolResults(requests[1])[0]);
    expect(text).toContain('- Name: Ada Lovelace');
    expect(text).toContain('- Agreed to terms: true');
    // Not entered by the user: filled from the schema's default (applyDefaults).
    expect(text).toContain('- Favorite Integer: 42');
    expect(text).toContain('"firstLine": "It was a dark and stormy night."');
  });

  it('tells the server when the user declines or cancels a form', async () => {
    approver.answers.form = { action: 'decline' };
    let requests = await run('form');
    expect(textOf(lastToolResults(requests[1])[0])).toContain('User declined to provide the requested information.');
    approver.answers.form = { action: 'cancel' };
    requests = await run('form');
    expect(textOf(lastToolResults(requests[1])[0])).toContain('User cancelled the elicitation dialog.');
  });

  it('shows a URL elicitation without fetching it, and opens it only when accepted', async () => {
    const port = (pageServer.address() as AddressInfo).port;
    const url = `http://127.0.0.1:${port}/consent?state=abc`;
    approver.answers.url = 'decline';
    const asked = approver.urls.length;
    let requests = await run(`url ${url}`);
    expect(approver.urls[asked]).toMatchObject({
      serverName: 'everything',
      message: 'Sign in to continue',
      url: { href: url, hostname: '127.0.0.1', openable: true },
    });
    expect(textOf(lastToolResults(requests[1])[0])).toContain('User declined to open the URL');
    expect(opened).toEqual([]);

    approver.answers.url = 'accept';
    requests = await run(`url ${url}`);
    expect(textOf(lastToolResults(requests[1])[0])).toContain('User completed the URL elicitation flow');
    expect(opened).toEqual([url]);
    // Neither answer made the host fetch the page; only the (here recording) browser opener would.
    expect(pageRequests).toBe(0);
  });
});
