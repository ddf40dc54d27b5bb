/**
 * Arguments that do not fit the tool's input schema are never sent: the model gets an error result naming each
 * failing field, no one is asked, and the audit log records the call as not run. A schema the validator cannot
 * compile does not block its tool: calls are forwarded, with one warning.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Host } from '../../src/host/create-host.js';
import { hostConfig } from '../helpers/configs.js';
import {
  auditOf,
  closeHosts,
  openHost,
  RecordingApprover,
  recordsOfType,
  resultText,
  scriptedModel,
  toolResultsIn,
} from './consent-helpers.js';
import { type HttpFixtures, type SchemaTool, startHttpFixtures } from './http-fixtures.js';

const writeFile = {
  name: 'write_file',
  inputSchema: {
    type: 'object',
    properties: {
      path: { type: 'string' },
      content: { type: 'string' },
      mode: { enum: ['overwrite', 'append'] },
      lines: { type: 'integer', minimum: 1 },
    },
    required: ['path', 'content'],
    additionalProperties: false,
  },
};
const addItems = {
  name: 'add_items',
  inputSchema: {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: { items: { type: 'array', items: { $ref: '#/definitions/item' } } },
    required: ['items'],
    definitions: { item: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
  },
};
// Unresolvable reference and a pattern no engine can read: neither compiles.
const brokenRef = {
  name: 'broken_ref',
  inputSchema: { type: 'object', properties: { a: { $ref: '#/$defs/missing' } } },
};
/** A keyword with a value of the wrong kind: refused when compiled, without the meta-schema check. */
const brokenType = {
  name: 'broken_type',
  inputSchema: { type: 'object', properties: { a: { type: 'strin' }, b: { type: 'object', required: 'c' } } },
};
const brokenPattern = {
  name: 'broken_pattern',
  inputSchema: { type: 'object', properties: { a: { type: 'string', pattern: '(?<unclosed' } } },
};

// Patterns that make a backtracking engine take exponential time on the argument below; RE2 answers at once.
const catastrophicPatterns = {
  name: 'catastrophic_patterns',
  inputSchema: {
    type: 'object',
    properties: { word: { type: 'string', pattern: '^(a+)+$' } },
    patternProperties: { '^(x|x)*y$': { type: 'string' } },
  },
};
// Valid in JavaScript, but lookahead is what a linear-time engine cannot do: treated as uncompilable.
const lookaheadPattern = {
  name: 'lookahead_pattern',
  inputSchema: { type: 'object', properties: { a: { type: 'string', pattern: '^(?=a)a$' } } },
};

// The servers (schema-server.mjs as served over Streamable HTTP from this process) check nothing, so what is refused
// was refused by the host.
let servers: HttpFixtures;
beforeAll(async () => {
  servers = await startHttpFixtures();
});
afterEach(closeHosts);
afterAll(() => servers.close());

async function open(tools: SchemaTool[], turns: Parameters<typeof scriptedModel>[0], diagnostics: string[] = []) {
  const provider = scriptedModel(turns);
  const host = await openHost({
    config: hostConfig([servers.schemaTools('x', tools, { trust: 'trusted' })]),
    provider,
    // Asked about nothing: an invalid call is refused before consent, and the rule allows the rest.
    approver: new RecordingApprover(),
    onDiagnostic: (message) => diagnostics.push(message),
  });
  return { host, provider };
}

async function callsReceived(host: Host): Promise<string> {
  return resultText((await host.callTool('x__calls_received', {})).result);
}

describe('arguments are checked against the input schema', () => {
  it('refuses arguments that do not fit, naming every failing field, and sends nothing', async () => {
    const { host, provider } = await open(
      [writeFile],
      [
        {
          toolCalls: [
            { id: 'bad', name: 'x__write_file', arguments: { path: 42, mode: 'truncate', lines: 0, force: true } },
          ],
        },
        { text: 'done' },
      ],
    );
    await host.run('write');
    const result = toolResultsIn(provider.requests[1]).get('bad');
    expect(result?.isError).toBe(true);
    expect(resultText(result)).toBe(
      [
        'The arguments for x__write_file do not match its input schema, so the call was not sent:',
        '- content: is required',
        '- force: is not a parameter of this tool (it takes: path, content, mode, lines)',
        '- path: must be string (got an integer)',
        '- mode: must be one of: ["overwrite","append"]',
        '- lines: must be >= 1',
        'Correct them and call the tool again.',
      ].join('\n'),
    );
    expect(await callsReceived(host)).toBe('0');

    const [record] = recordsOfType(await auditOf(host), 'tool-call');
    expect(record).toMatchObject({
      tool: 'x__write_file',
      decision: 'deny',
      outcome: 'error',
      arguments: { path: 42, mode: 'truncate', lines: 0, force: true },
    });
    expect(record?.startedAt).toBeUndefined();
    expect(record?.error).toContain('- content: is required');
  });

  it('names nested fields, in a draft-07 schema with definitions', async () => {
    const { host } = await open([addItems], []);
    const bad = await host.callTool('x__add_items', { items: [{ name: 'a' }, { label: 'b' }, { name: 3 }] });
    expect(bad.outcome).toBe('invalid');
    expect(resultText(bad.result)).toContain(
      '- items[1].name: is required\n- items[2].name: must be string (got an integer)',
    );
    const good = await host.callTool('x__add_items', { items: [{ name: 'a' }] });
    expect(good.outcome).toBe('ok');
    expect(resultText(good.result)).toBe('received add_items {"items":[{"name":"a"}]}');
    expect(await callsReceived(host)).toBe('1');
  });

  it('sends arguments that fit', async () => {
    const { host } = await open([writeFile], []);
    const call = await host.callTool('x__write_file', { path: 'a.txt', content: 'hi', mode: 'append' });
    expect(call.outcome).toBe('ok');
    expect(resultText(call.result)).toBe('received write_file {"path":"a.txt","content":"hi","mode":"append"}');
  });

  it('checks server-written patterns in linear time, so a hostile pattern cannot stall the host', async () => {
    const { host } = await open([catastrophicPatterns], []);
    const hostile = `${'a'.repeat(50_000)}!`;
    const bad = await host.callTool('x__catastrophic_patterns', { word: hostile });
    expect(bad.outcome).toBe('invalid');
    expect(resultText(bad.result)).toContain('- word: must match pattern "^(a+)+$"');
    const good = await host.callTool('x__catastrophic_patterns', { word: 'aaa', [`${'x'.repeat(10_000)}y`]: 'z' });
    expect(good.outcome).toBe('ok');
    expect(await callsReceived(host)).toBe('1');
  });

  it('forwards calls of a tool whose pattern needs a backtracking engine, with a warning', async () => {
    const diagnostics: string[] = [];
    const { host } = await open([lookaheadPattern], [], diagnostics);
    expect(resultText((await host.callTool('x__lookahead_pattern', { a: 'b' })).result)).toBe(
      'received lookahead_pattern {"a":"b"}',
    );
    expect(
      diagnostics.filter((line) => line.startsWith('x__lookahead_pattern: its input schema could not be compiled')),
    ).toHaveLength(1);
  });

  it('forwards calls of a tool whose schema cannot be compiled, with one warning per tool', async () => {
    const diagnostics: string[] = [];
    const { host } = await open([brokenRef, brokenPattern, brokenType], [], diagnostics);
    for (const value of ['one', 'two']) {
      expect(resultText((await host.callTool('x__broken_type', { a: value })).result)).toBe(
        `received broken_type {"a":"${value}"}`,
      );
      expect(resultText((await host.callTool('x__broken_ref', { a: value })).result)).toBe(
        `received broken_ref {"a":"${value}"}`,
      );
      expect(resultText((await host.callTool('x__broken_pattern', { a: value })).result)).toBe(
        `received broken_pattern {"a":"${value}"}`,
      );
    }
    const warnings = diagnostics.filter((line) => line.includes('could not be compiled'));
    expect(warnings).toHaveLength(3);
    expect(warnings.find((line) => line.startsWith('x__broken_type'))).toMatch(
      /^x__broken_type: its input schema could not be compiled \(.*strin.*\), so its arguments are sent unchecked\.$/,
    );
    expect(warnings.find((line) => line.startsWith('x__broken_ref'))).toMatch(
      /^x__broken_ref: its input schema could not be compiled \(.*missing.*\), so its arguments are sent unchecked\.$/,
    );
    expect(warnings.find((line) => line.startsWith('x__broken_pattern'))).toMatch(
      /^x__broken_pattern: its input schema could not be compiled \(.+\), so its arguments are sent unchecked\.$/,
    );
  });
});
