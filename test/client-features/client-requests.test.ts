/**
 * Client requests sent exactly as a test server chooses (any mode, tools or not), to check the answers and
 * errors the host sends back: modes not declared, tools in sampling with and without the capability, and what
 * happens with no one to ask.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryAuditSink } from '../../src/audit/audit-sink.js';
import type { HostConfig } from '../../src/config/types.js';
import { createHost, type Host, type HostOptions } from '../../src/host/create-host.js';
import { TrustStore } from '../../src/policy/trust-store.js';
import { createYesApprover } from '../../src/policy/yes-approver.js';
import { createScriptedProvider } from '../../src/testing/scripted-provider.js';
import { hostConfig, stdioServer } from '../helpers/configs.js';
import { temporaryDirectory } from '../helpers/project.js';
import { clientRequestsServer, createRecordingApprover, textOf } from './helpers.js';

let host: Host | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

async function open(options: Partial<HostOptions> = {}, extra: Partial<HostConfig> = {}): Promise<Host> {
  host = await createHost({
    config: hostConfig([stdioServer('requests', [clientRequestsServer()], { trust: 'trusted' })], extra),
    approver: createYesApprover(),
    trustStore: TrustStore.inMemory(),
    auditSink: false,
    stateDir: await temporaryDirectory('mcp-host-state-'),
    clientFeatures: { serverLogDirectory: false, openUrl: async () => undefined },
    ...options,
  });
  return host;
}

const urlParams = { mode: 'url', message: 'Open this', url: 'https://example.com/x', elicitationId: 'e-1' };
const formParams = {
  message: 'Who are you?',
  requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
};
const sampleParams = {
  messages: [{ role: 'user', content: { type: 'text', text: 'Weather in Oslo?' } }],
  maxTokens: 30,
  tools: [
    {
      name: 'weather',
      description: 'Weather for a city',
      inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
    },
  ],
};

describe('elicitation modes', () => {
  it('answers a mode the host did not declare with -32602 (invalid params), without asking anyone', async () => {
    const approver = createRecordingApprover();
    const opened = await open({
      clientRequestApprover: approver,
      clientFeatures: { elicitation: { form: true, url: false } },
    });
    const call = await opened.callTool('requests__elicit', { params: urlParams });
    expect(textOf(call.result)).toBe('error -32602: Client does not support URL-mode elicitation requests');
    expect(approver.urls).toHaveLength(0);

    host = undefined;
    await opened.close();
    const formless = await open({
      clientRequestApprover: approver,
      clientFeatures: { elicitation: { form: false, url: true } },
    });
    const form = await formless.callTool('requests__elicit', { params: formParams });
    expect(textOf(form.result)).toBe('error -32602: Client does not support form-mode elicitation requests');
    expect(approver.forms).toHaveLength(0);
  });

  it('declines every elicitation with no one to ask, and never opens a URL', async () => {
    const opened: string[] = [];
    const audit = createMemoryAuditSink();
    const headless = await open({
      auditSink: audit,
      clientFeatures: { serverLogDirectory: false, openUrl: async (url) => void opened.push(url) },
    });
    const form = await headless.callTool('requests__elicit', { params: formParams });
    expect(JSON.parse(textOf(form.result))).toEqual({ action: 'decline' });
    const url = await headless.callTool('requests__elicit', { params: urlParams });
    expect(JSON.parse(textOf(url.result))).toEqual({ action: 'decline' });
    expect(opened).toEqual([]);
    // Audited like tool calls: who asked, what was asked (field names, never values), the answer.
    const records = audit.records.filter(
      (record) => record.type === 'tool-call' && record.tool === 'elicitation/create',
    );
    expect(records).toMatchObject([
      {
        server: 'requests',
        decision: 'deny',
        approver: 'headless',
        outcome: 'denied',
        arguments: { mode: 'form', message: 'Who are you?', fields: ['name'] },
      },
      { server: 'requests', decision: 'deny', arguments: { mode: 'url', url: 'https://example.com/x' } },
    ]);
  });

  it('does not open a URL the user accepted when it is not http(s): the server is told it was cancelled', async () => {
    const approver = createRecordingApprover();
    approver.answers.url = 'accept';
    const opened: string[] = [];
    const withApprover = await open({
      clientRequestApprover: approver,
      clientFeatures: { serverLogDirectory: false, openUrl: async (url) => void opened.push(url) },
    });
    const call = await withApprover.callTool('requests__elicit', {
      params: { ...urlParams, url: 'file:///etc/passwd' },
    });
    expect(JSON.parse(textOf(call.result))).toEqual({ action: 'cancel' });
    expect(opened).toEqual([]);
  });
});

describe('sampling', () => {
  it('is declined with no one to ask, and the decline is audited', async () => {
    const audit = createMemoryAuditSink();
    const provider = createScriptedProvider({ scenarios: [{ turns: [{ text: 'should not be asked' }] }] });
    const headless = await open({ provider, auditSink: audit });
    const call = await headless.callTool('requests__sample', { params: { ...sampleParams, tools: undefined } });
    expect(textOf(call.result)).toBe('error -1: User rejected sampling request');
    expect(provider.requests).toHaveLength(0);
    expect(
      audit.records.find((record) => record.type === 'tool-call' && record.tool === 'sampling/createMessage'),
    ).toMatchObject({
      server: 'requests',
      decision: 'deny',
      approver: 'headless',
      outcome: 'denied',
      arguments: { messages: [{ role: 'user', content: [{ type: 'text', text: 'Weather in Oslo?' }] }], maxOutput: 30 },
    });
  });

  it('is answered without asking when allowed up front (--allow-sampling)', async () => {
    const provider = createScriptedProvider({ scenarios: [{ match: '^Weather', turns: [{ text: 'Cold.' }] }] });
    const allowed = await open({ provider, allowSampling: true });
    const call = await allowed.callTool('requests__sample', { params: { ...sampleParams, tools: undefined } });
    expect(JSON.parse(textOf(call.result))).toEqual({
      role: 'assistant',
      model: 'scripted',
      stopReason: 'endTurn',
      content: { type: 'text', text: 'Cold.' },
    });
  });

  it('offers the server its tools and returns tool_use when the host declares sampling tools', async () => {
    const provider = createScriptedProvider({
      scenarios: [
        { match: '^Weather', turns: [{ toolCalls: [{ id: 'call-1', name: 'weather', arguments: { city: 'Oslo' } }] }] },
      ],
    });
    const withTools = await open({ provider, allowSampling: true });
    const call = await withTools.callTool('requests__sample', { params: sampleParams });
    expect(provider.requests[0]?.tools.map((tool) => tool.name)).toEqual(['weather']);
    expect(JSON.parse(textOf(call.result))).toEqual({
      role: 'assistant',
      model: 'scripted',
      stopReason: 'toolUse',
      content: [{ type: 'tool_use', id: 'call-1', name: 'weather', input: { city: 'Oslo' } }],
    });
  });

  it('refuses tools inside sampling when the config turned that capability off', async () => {
    const provider = createScriptedProvider({ scenarios: [{ turns: [{ text: 'x' }] }] });
    const noTools = await open(
      { provider, allowSampling: true },
      { sampling: { servers: {}, hints: {}, tools: false } },
    );
    const call = await noTools.callTool('requests__sample', { params: sampleParams });
    expect(textOf(call.result)).toMatch(/^error -32602: .*did not declare tool use in sampling/);
    expect(provider.requests).toHaveLength(0);
  });

  it('uses the model the config maps the server to', async () => {
    const script = await temporaryDirectory('mcp-host-script-');
    const { writeFile } = await import('node:fs/promises');
    await writeFile(
      `${script}/sampling.json`,
      JSON.stringify({ scenarios: [{ turns: [{ text: 'from the mapped model' }] }] }),
    );
    const hostModel = createScriptedProvider({ scenarios: [{ turns: [{ text: 'from the host model' }] }] });
    const mapped = await open(
      { provider: hostModel, allowSampling: true },
      { sampling: { servers: { requests: `scripted:${script}/sampling.json` }, hints: {}, tools: true } },
    );
    const call = await mapped.callTool('requests__sample', { params: { ...sampleParams, tools: undefined } });
    expect(JSON.parse(textOf(call.result)).content).toEqual({ type: 'text', text: 'from the mapped model' });
    expect(hostModel.requests).toHaveLength(0);
  });
});
