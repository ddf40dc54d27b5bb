/**
 * `__proto__`, `constructor` and the like as names in untrusted data (server messages, elicitation forms, config,
 * gateway request paths, tool names, command-line pairs). `JSON.parse` makes `"__proto__"` an ordinary key, and a
 * copy made with `copy[key] = value` would drop it (or take the value as the copy's prototype); a lookup
 * `object[name]` would find Object's own members. Each place keeps such a key as data and finds only what is there.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client, type StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactArguments, redactValues } from '../../src/audit/redact.js';
import { parseKeyValues } from '../../src/cli/parse-key-values.js';
import { chooseSamplingModel } from '../../src/client-features/choose-sampling-model.js';
import { ConfigError } from '../../src/config/config-error.js';
import { substituteEnvironment } from '../../src/config/env-substitution.js';
import { validateConfig } from '../../src/config/parse-config.js';
import type { StdioServerConfig } from '../../src/config/types.js';
import { JsonLineBuilder, LONG_STRING_CHARS, restoreLongStrings } from '../../src/connections/json-line-builder.js';
import { createGatewayHosts, UnknownProfileError } from '../../src/gateway/gateway-hosts.js';
import type { Host } from '../../src/host/create-host.js';
import { restoreOwnKeys, setOwnProperty } from '../../src/json/own-property.js';
import { TrustStore } from '../../src/policy/trust-store.js';
import { toAnthropicRequest } from '../../src/providers/anthropic/to-anthropic-request.js';
import { toGeminiRequest } from '../../src/providers/gemini/to-gemini-request.js';
import { toOpenAiChatRequest } from '../../src/providers/openai-chat/to-openai-chat-request.js';
import { toOpenAiResponsesRequest } from '../../src/providers/openai-responses/to-openai-responses-request.js';
import { MAX_REFERENCE_CHAIN, MAX_SCHEMA_EXPANSION_STEPS, SCHEMA_TARGETS } from '../../src/providers/schema/index.js';
import { estimateToolTokens } from '../../src/providers/token-estimate/o200k-token-estimate.js';
import { answerTo, type RawStdioGateway, rawStdioGateway, toolCallLine } from '../gateway/raw-stdio-gateway.js';
import { auditRecords } from '../helpers/audit-records.js';
import { bearerTransport } from '../helpers/bearer-transport.js';
import { hostConfig, stdioServer } from '../helpers/configs.js';
import { startGatewayProcess, waitUntil } from '../helpers/gateway-process.js';
import { bundledCliPath, runCli, writeConfig } from '../helpers/project.js';
import { closeHosts, faultFixture, openFaultHost, resultText } from './fault-helpers.js';

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function temporaryFolder(): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'proto-keys-'));
  folders.push(folder);
  return folder;
}

function ownValue(object: unknown, key: string): unknown {
  expect(Object.hasOwn(object as object, key), `own ${key}`).toBe(true);
  return Object.getOwnPropertyDescriptor(object, key)?.value;
}

describe('setOwnProperty', () => {
  it('makes __proto__ an own property and leaves the prototype alone', () => {
    const target: Record<string, unknown> = {};
    setOwnProperty(target, '__proto__', { type: 'string' });
    setOwnProperty(target, 'name', 'x');
    expect(Object.getPrototypeOf(target)).toBe(Object.prototype);
    expect(target.type).toBeUndefined();
    expect(JSON.stringify(target)).toBe('{"__proto__":{"type":"string"},"name":"x"}');
  });
});

describe('restoreOwnKeys', () => {
  it('turns a prototype the client library made of a __proto__ key back into the key, at any depth', () => {
    const parsed = { content: [Object.create({ text: 'inherited' }) as object], plain: { a: 1 } };
    const top = Object.create({ isError: true }) as Record<string, unknown>;
    top.inner = parsed;
    const restored = restoreOwnKeys(top);
    expectNothingInherited(restored);
    expect(JSON.stringify(restored)).toBe(
      '{"inner":{"content":[{"__proto__":{"text":"inherited"}}],"plain":{"a":1}},"__proto__":{"isError":true}}',
    );
    // An ordinary value is walked, not copied.
    const ordinary = { content: [{ type: 'text', text: 'x' }] };
    expect(restoreOwnKeys(ordinary)).toBe(ordinary);
    expect(restoreOwnKeys(ordinary).content[0]).toBe(ordinary.content[0]);
  });
});

describe('a server message', () => {
  it('keeps a __proto__ key beside a key too long to hold in the line', () => {
    const longKey = 'k'.repeat(LONG_STRING_CHARS + 10);
    const text = `{"jsonrpc":"2.0","id":1,"result":{"__proto__":{"isError":true},"${longKey}":1,"after":2}}`;
    const builder = new JsonLineBuilder();
    builder.add(text);
    const line = builder.finish();
    expect(line.longStrings.length).toBeGreaterThan(0);
    const message = restoreLongStrings(JSON.parse(line.text), line.longStrings) as { result: Record<string, unknown> };
    expect(Object.keys(message.result)).toEqual(['__proto__', longKey, 'after']);
    expect(ownValue(message.result, '__proto__')).toEqual({ isError: true });
    expect(Object.getPrototypeOf(message.result)).toBe(Object.prototype);
    expect(message.result.isError).toBeUndefined();
  });
});

describe('the config', () => {
  it('keeps a variable named __proto__ from an env file', () => {
    const folder = temporaryFolder();
    writeFileSync(path.join(folder, 'server.env'), '__proto__=one\nPLAIN=two\n');
    const config = validateConfig(
      JSON.parse('{"mcpServers": {"local": {"command": "x", "envFile": "server.env", "env": {"OTHER": "three"}}}}'),
      { env: {}, cwd: folder },
    );
    const local = config.servers[0] as StdioServerConfig;
    expect(ownValue(local.env, '__proto__')).toBe('one');
    expect(local.env.PLAIN).toBe('two');
    expect(local.env.OTHER).toBe('three');
    expect(Object.getPrototypeOf(local.env)).toBe(Object.prototype);
  });

  it('refuses a __proto__ key written in the config, naming where it is', () => {
    const folder = temporaryFolder();
    const withKey = (json: string) => () => validateConfig(JSON.parse(json), { env: {}, cwd: folder });
    expect(withKey('{"mcpServers": {"local": {"command": "x", "env": {"__proto__": "three"}}}}')).toThrow(
      /mcpServers\.local\.env\.__proto__: expected no key named `__proto__`/,
    );
    expect(
      withKey('{"mcpServers": {"local": {"command": "x"}}, "profiles": {"__proto__": {"servers": ["local"]}}}'),
    ).toThrow(/profiles\.__proto__: expected no key named `__proto__`/);
  });

  it('treats a reference to constructor as an unset variable, not as Object.prototype.constructor', () => {
    const context = { env: {}, file: undefined, secrets: new Set<string>() };
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the config's reference syntax.
    expect(() => substituteEnvironment('${constructor}', 'command', context)).toThrow(ConfigError);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the config's reference syntax.
    expect(substituteEnvironment('${toString:-fallback}', 'command', context)).toBe('fallback');
  });

  it("a server named constructor gets the sampling model, not Object's constructor", () => {
    const settings = { model: 'scripted:model.json', servers: {}, hints: {}, tools: true };
    expect(chooseSamplingModel(settings, 'constructor', [])).toBe('scripted:model.json');
  });
});

describe('a gateway request for a profile named like an Object member', () => {
  it.each(['constructor', '__proto__', 'toString'])('/mcp/%s is an unknown profile', async (name) => {
    const team = { servers: [], tools: [], permissions: { allow: [], ask: [], deny: [] } };
    const hosts = createGatewayHosts(hostConfig([], { profiles: { team } }), {});
    try {
      await expect(hosts.get(name)).rejects.toBeInstanceOf(UnknownProfileError);
    } finally {
      await hosts.close();
    }
  });
});

describe('a tool named __proto__', () => {
  it('is pinned in the trust store and found approved after reopening', () => {
    const folder = temporaryFolder();
    const file = path.join(folder, 'trust.json');
    const server = stdioServer('hostile', ['server.mjs']);
    const tool = { name: '__proto__', description: 'A tool.', inputSchema: { type: 'object' } };
    const store = TrustStore.open(file);
    store.checkServer(server);
    store.approveServer(server);
    store.approveTool('hostile', tool);
    const reopened = TrustStore.open(file);
    reopened.checkServer(server);
    expect(reopened.checkTool('hostile', tool)).toBe('approved');
    expect(reopened.checkTool('hostile', { ...tool, name: 'constructor' })).toBe('new');
  });
});

describe('tools call key=value pairs', () => {
  it('sets a declared __proto__ parameter as an argument', () => {
    const schema = JSON.parse(
      '{"type":"object","properties":{"__proto__":{"type":"object"},"name":{"type":"string"}}}',
    );
    const args = parseKeyValues(['__proto__={"a":1}', 'name=x'], schema);
    expect(ownValue(args, '__proto__')).toEqual({ a: 1 });
    expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
    expect(() =>
      parseKeyValues(['constructor=1'], { type: 'object', properties: { name: { type: 'string' } } }),
    ).toThrow(/no parameter "constructor"/);
  });
});

/** The arguments of the tool-call records of the audit log in `stateDir`, as JSON text. */
async function auditedArguments(stateDir: string): Promise<string[]> {
  return (await auditRecords(stateDir))
    .filter((record) => record.type === 'tool-call')
    .map((record) => JSON.stringify(record.arguments));
}

/** Every object in `value` is a plain one: nothing of the server's is inherited anywhere. */
function expectNothingInherited(value: unknown, at = '(root)'): void {
  if (value === null || typeof value !== 'object') return;
  if (!Array.isArray(value)) expect(Object.getPrototypeOf(value), at).toBe(Object.prototype);
  for (const [key, item] of Object.entries(value)) expectNothingInherited(item, `${at}/${key}`);
}

describe('a real stdio server with __proto__ and constructor in its tools and prompts, and $defs without end', () => {
  let host: Host;
  const diagnostics: string[] = [];
  beforeAll(async () => {
    host = await openFaultHost(
      hostConfig([stdioServer('hostile', [faultFixture('hostile-server.mjs'), 'proto-schema', 'wide-schema'])]),
      { onDiagnostic: (message) => diagnostics.push(message) },
    );
    // Listing a schema of $defs without end is seconds of work, several times that in a worker that ran other files
    // first (a larger heap): on a busy machine it passed the default 30 s, and once 60 s.
  }, 180_000);
  afterAll(closeHosts);

  it('lists a tool whose schema has __proto__ keys with nothing inherited; every provider gets the declared object', () => {
    const tools = host.toolDefinitions().filter((tool) => tool.name === 'hostile__proto_tool');
    expect(tools).toHaveLength(1);
    const listed = tools[0]!.inputSchema;
    expectNothingInherited(listed);
    // The `__proto__` keyword and the property named `__proto__` are keys, as the server wrote them.
    expect(ownValue(listed, '__proto__')).toEqual({ type: 'string' });
    expect(ownValue(listed.properties, '__proto__')).toEqual({ type: 'string', description: 'The prototype name.' });
    expect(listed.type).toBe('object');

    const request = { messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'hi' }] }], tools };
    const anthropic = toAnthropicRequest(request, { model: 'claude-test', maxOutputTokens: 1024, stream: false });
    const chat = toOpenAiChatRequest(request, { model: 'gpt-test', local: false, strictTools: true });
    const responses = toOpenAiResponsesRequest(request, { model: 'gpt-test' });
    const gemini = toGeminiRequest(request).request.config.tools?.[0] as {
      functionDeclarations: { parameters?: unknown; parametersJsonSchema?: unknown }[];
    };
    const declaration = gemini.functionDeclarations[0]!;
    const sent = [
      (anthropic.tools![0] as { input_schema: unknown }).input_schema,
      (chat.tools![0] as { function: { parameters: unknown } }).function.parameters,
      (responses.tools![0] as { parameters: unknown }).parameters,
      declaration.parameters ?? declaration.parametersJsonSchema,
    ] as { type: string; properties: Record<string, unknown>; description?: string }[];
    for (const schema of sent) {
      expectNothingInherited(schema);
      expect(schema.type.toLowerCase()).toBe('object');
      expect(Object.keys(schema.properties)).toContain('name');
      expect(schema.description).toContain('__proto__');
    }
  });

  it('withholds the tools whose $defs name one another past the bounds, naming each; the rest go to every provider', () => {
    const names = host.toolDefinitions().map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['hostile__echo', 'hostile__proto_tool', 'hostile__ref_cycle']));
    expect(names).not.toContain('hostile__ref_chain');
    expect(names).not.toContain('hostile__ref_fanout');
    expect(diagnostics).toContain(
      `server "hostile": its tool "ref_chain" is withheld: its input schema chains more than ${MAX_REFERENCE_CHAIN} $ref or allOf references one inside another`,
    );
    expect(diagnostics).toContain(
      `server "hostile": its tool "ref_fanout" is withheld: its input schema expands past ${MAX_SCHEMA_EXPANSION_STEPS} steps while its $ref and allOf are resolved`,
    );
    const tools = host.toolDefinitions();
    const request = { messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'hi' }] }], tools };
    const sent = [
      toAnthropicRequest(request, { model: 'claude-test', maxOutputTokens: 1024, stream: false }),
      toOpenAiChatRequest(request, { model: 'gpt-test', local: false, strictTools: true }),
      toOpenAiChatRequest(request, { model: 'local', local: true, strictTools: false }),
      toOpenAiResponsesRequest(request, { model: 'gpt-test' }),
      toGeminiRequest(request),
    ];
    for (const body of sent) expect(JSON.stringify(body)).toContain('ref_cycle');
    for (const target of SCHEMA_TARGETS) {
      for (const tool of tools) expect(estimateToolTokens(tool, target)).toBeGreaterThan(0);
    }
  });

  it("lists the withheld tools in the server's status with the reason; a call of one is refused", async () => {
    expect(host.withheldReason('hostile__ref_fanout')).toBe(
      `its input schema expands past ${MAX_SCHEMA_EXPANSION_STEPS} steps while its $ref and allOf are resolved, so it cannot be called.`,
    );
    const called = await host.callTool('hostile__ref_chain', { value: 'x' });
    expect(called.outcome).toBe('invalid');
    expect(resultText(called.result)).toBe(
      `Unknown tool "hostile__ref_chain": its input schema chains more than ${MAX_REFERENCE_CHAIN} $ref or allOf references one inside another, so it cannot be called.`,
    );
    const status = host.servers().find((server) => server.name === 'hostile');
    expect(status?.unsupportedTools?.map((item) => [item.tool, item.reason])).toEqual([
      [
        'ref_chain',
        `its input schema chains more than ${MAX_REFERENCE_CHAIN} $ref or allOf references one inside another`,
      ],
      [
        'ref_fanout',
        `its input schema expands past ${MAX_SCHEMA_EXPANSION_STEPS} steps while its $ref and allOf are resolved`,
      ],
    ]);
  });

  // The client library's checks would take a `__proto__` key of a call result for the object's prototype, or drop
  // it from a map such as `structuredContent`; the host keeps each as the data key it was, and reads no field of
  // the answer through a server's `__proto__` object.
  it('reads nothing of a call result through a __proto__ key', async () => {
    const called = await host.callTool('hostile__proto_result', {});
    // The result's `"__proto__": {"isError": true}` does not make it a failure.
    expect(called.outcome).toBe('ok');
    expect(called.result.isError).toBe(false);
    expect(resultText(called.result)).toBe('{"__proto__":{"hidden":"kept"},"shown":1}');

    // `name` only under `__proto__` is no `name`: the outputSchema check refuses the answer.
    const structured = await host.callTool('hostile__proto_structured', {});
    expect(structured.outcome).toBe('error');
    expect(resultText(structured.result)).toContain("data must have required property 'name'");
  });

  it('keeps __proto__ keys of the arguments and of the structuredContent as data keys, at any depth', async () => {
    // Parsed from text, as a model's arguments are: in a literal `__proto__` would set the prototype.
    const args = JSON.parse(
      '{"__proto__":{"top":1},"outer":{"__proto__":{"a":1},"b":2},"list":[{"__proto__":{"c":3}}],"~__proto__":"as sent"}',
    ) as Record<string, unknown>;
    const wire = JSON.stringify(args);
    // The server answers with the arguments as they reached it, as text and as structuredContent.
    const echoed = await host.callTool('hostile__echo_arguments', args);
    expect(echoed.outcome).toBe('ok');
    expect(resultText(echoed.result)).toBe(wire);
    // The raw result the caller gets keeps them as data keys, the top one included.
    const structuredContent = (echoed.rawResult as { structuredContent: unknown }).structuredContent;
    expectNothingInherited(structuredContent);
    expect(ownValue(structuredContent, '__proto__')).toEqual({ top: 1 });
    expect(JSON.stringify(structuredContent)).toBe(wire);
    // With an outputSchema the structuredContent is the answer the model gets, sent as JSON.
    const structured = await host.callTool('hostile__echo_structured', args);
    expect(structured.outcome).toBe('ok');
    expect(resultText(structured.result)).toBe(wire);
  });

  it('names back the __proto__ keys of an answer that arrives among answers without any', async () => {
    // A call's answer is walked to name its keys back only when an answer with renamed keys arrived during the call:
    // calls at once, with and without such keys, each come back as the server sent it.
    const hostile = JSON.parse('{"__proto__":{"top":1},"outer":{"__proto__":{"a":1}}}') as Record<string, unknown>;
    const plain = { plain: { a: 1 }, list: [1, 2] };
    const sent = Array.from({ length: 12 }, (_, index) => (index % 3 === 1 ? hostile : plain));
    const called = await Promise.all(sent.map((args) => host.callTool('hostile__echo_structured', args)));
    expect(called.map((call) => call.outcome)).toEqual(sent.map(() => 'ok'));
    expect(called.map((call) => resultText(call.result))).toEqual(sent.map((args) => JSON.stringify(args)));
    for (const call of called)
      expectNothingInherited((call.rawResult as { structuredContent: unknown }).structuredContent);
  });

  it('checks the rules of a parameter named __proto__ before the call, and of that key in the structuredContent', async () => {
    const listed = host.toolDefinitions().find((tool) => tool.name === 'hostile__proto_parameter')?.inputSchema;
    expectNothingInherited(listed);
    expect(ownValue(listed?.properties, '__proto__')).toEqual({ type: 'string', maxLength: 5 });
    // Parsed from text, as a model's arguments are: in a literal `__proto__` would set the prototype.
    const call = (args: string) =>
      host.callTool('hostile__proto_parameter', JSON.parse(args) as Record<string, unknown>);

    const tooLong = await call('{"__proto__":"toolong"}');
    expect(tooLong.outcome).toBe('invalid');
    expect(resultText(tooLong.result)).toContain('- __proto__: must NOT have more than 5 characters');
    const notText = await call('{"__proto__":5,"name":"x"}');
    expect(notText.outcome).toBe('invalid');
    expect(resultText(notText.result)).toContain('- __proto__: must be string (got an integer)');
    const other = await call('{"other":1}');
    expect(other.outcome).toBe('invalid');
    expect(resultText(other.result)).toContain('- other: is not a parameter of this tool');

    // A fitting one is sent, and reaches the server as the key it is; the answer's is checked against the
    // outputSchema's own rules for it.
    const fits = await call('{"__proto__":"abc","name":"x"}');
    expect(fits.outcome).toBe('ok');
    expect(resultText(fits.result)).toBe('{"__proto__":"abc","name":"x"}');
    const structured = (fits.rawResult as { structuredContent: Record<string, unknown> }).structuredContent;
    expectNothingInherited(structured);
    expect(ownValue(structured, '__proto__')).toBe('abc');
    const longAnswer = await call('{"__proto__":"abcd"}');
    expect(longAnswer.outcome).toBe('error');
    expect(resultText(longAnswer.result)).toContain(
      "the server's result does not match the tool's outputSchema: data/__proto__ must NOT have more than 3 characters",
    );

    // No object took a server's value for its prototype on the way.
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
    expect(({} as { maxLength?: unknown }).maxLength).toBeUndefined();
    expect(Object.getPrototypeOf(listed)).toBe(Object.prototype);
  });

  it('checks what a __proto__ key requires under dependencies, of the arguments and of the structuredContent', async () => {
    const listed = host.toolDefinitions().find((tool) => tool.name === 'hostile__proto_dependencies')?.inputSchema;
    expect(ownValue(listed?.dependencies, '__proto__')).toEqual(['name']);
    // Parsed from text, as a model's arguments are: in a literal `__proto__` would set the prototype.
    const call = (args: string) =>
      host.callTool('hostile__proto_dependencies', JSON.parse(args) as Record<string, unknown>);

    const alone = await call('{"__proto__":1}');
    expect(alone.outcome).toBe('invalid');
    expect(resultText(alone.result)).toMatch(/:\n- name: is required\n/);
    const longAnswer = await call('{"__proto__":1,"name":"abcd"}');
    expect(longAnswer.outcome).toBe('error');
    expect(resultText(longAnswer.result)).toContain(
      "the server's result does not match the tool's outputSchema: data/name must NOT have more than 3 characters",
    );
    // Without the key, neither rule applies.
    expect((await call('{"name":"abcd"}')).outcome).toBe('ok');
    const fits = await call('{"__proto__":1,"name":"abc"}');
    expect(fits.outcome).toBe('ok');
    expect(resultText(fits.result)).toBe('{"__proto__":1,"name":"abc"}');
  });

  // The library's checks would drop a `__proto__` key of a `_meta` map; the host keeps it as the data key it was.
  // Beside a message's or a content's fields it goes, as the key `extra` beside it does: the library keeps no field
  // those objects do not define.
  it('keeps the __proto__ keys of a prompt and a resource as keys, in _meta at any depth, and reads nothing through one', async () => {
    const { result: prompt } = await host.prompts.get('hostile:proto_result', {});
    expectNothingInherited(prompt);
    expect(ownValue(prompt, '__proto__')).toEqual({ description: 'inherited' });
    expect(prompt.description).toBeUndefined();
    // JSON writes an own `__proto__` key as it was read.
    expect(JSON.stringify(prompt._meta)).toBe('{"__proto__":{"a":1}}');
    expect(JSON.stringify(prompt.messages)).toBe(
      '[{"role":"user","content":{"type":"text","text":"built","_meta":{"__proto__":{"z":3}}}}]',
    );

    const resource = await host.resources.read('hostile', 'proto://one');
    expectNothingInherited(resource);
    expect(ownValue(resource, '__proto__')).toEqual({ note: 'inherited' });
    expect(resource.contents[0]?.mimeType).toBeUndefined();
    expect(JSON.stringify(resource.contents)).toBe(
      '[{"uri":"proto://one","_meta":{"__proto__":{"m":1},"~__proto__":"as sent"},"text":"one"}]',
    );
  });

  it('refuses a prompt whose required argument is named constructor until it is given', async () => {
    await expect(host.prompts.get('hostile:proto_prompt', {})).rejects.toThrow(
      'needs the argument constructor: pass constructor=VALUE',
    );
    const { result } = await host.prompts.get('hostile:proto_prompt', { constructor: 'Ada' });
    expect(result.messages[0]?.content).toEqual({ type: 'text', text: 'built by Ada' });
  });
});

/** A config file with the hostile fixture server (its `__proto__`-keyed tools), trusted, and `permissions` if given. */
function hostileServerConfig(permissions?: { allow: string[] }): Promise<string> {
  return writeConfig({
    mcpServers: {
      hostile: {
        command: process.execPath,
        args: [faultFixture('hostile-server.mjs'), 'proto-schema'],
        trust: 'trusted',
      },
    },
    ...(permissions === undefined ? {} : { permissions }),
  });
}

describe('a client of the gateway', () => {
  it('has the __proto__ keys of its tool call arguments reach the server as it sent them, over stdio and HTTP', async () => {
    const config = await hostileServerConfig({ allow: ['hostile__*'] });
    const stateDir = temporaryFolder();
    // Parsed from text, as a client's JSON library reads them: in a literal `__proto__` would set the prototype.
    const args = JSON.parse(
      '{"__proto__":{"top":1},"outer":{"__proto__":{"a":1},"b":2},"~__proto__":"as sent"}',
    ) as Record<string, unknown>;
    const echoedThrough = async (transport: StdioClientTransport | StreamableHTTPClientTransport) => {
      const client = new Client({ name: 'proto-keys-test', version: '1.0.0' });
      await client.connect(transport);
      try {
        const result = await client.callTool({ name: 'hostile__echo_arguments', arguments: args });
        return (result.content as Array<{ text?: string }>)[0]?.text;
      } finally {
        await client.close();
      }
    };

    const overStdio = await echoedThrough(
      new StdioClientTransport({
        command: process.execPath,
        args: [bundledCliPath(), 'serve', '--config', config, '--state-dir', stateDir],
        stderr: 'ignore',
      }),
    );
    expect(overStdio).toBe(JSON.stringify(args));

    const token = 'a-test-token-of-enough-length';
    const gateway = await startGatewayProcess(['--config', config, '--state-dir', stateDir], {
      MCP_HOST_GATEWAY_TOKEN: token,
    });
    try {
      const overHttp = await echoedThrough(bearerTransport(gateway.url, token));
      expect(overHttp).toBe(JSON.stringify(args));
    } finally {
      await gateway.stop();
    }
    // The audit log records them as they came too, the top one included.
    expect(await auditedArguments(stateDir)).toEqual([JSON.stringify(args), JSON.stringify(args)]);
  }, 120_000);
});

/**
 * One `serve` over stdio spoken to in raw lines (the SDK client's own result check would drop the keys these look
 * for), shared by the tests below: each asks its own request of the same server, which keeps no state between them.
 */
describe('a raw stdio client of the gateway', () => {
  const cleanups: Array<() => Promise<void>> = [];
  let gateway: RawStdioGateway;
  beforeAll(async () => {
    const config = await hostileServerConfig({ allow: ['hostile__*'] });
    gateway = await rawStdioGateway(
      [bundledCliPath(), 'serve', '--config', config, '--state-dir', temporaryFolder()],
      cleanups,
    );
  }, 60_000);
  afterAll(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  describe('calling a tool with structured output', () => {
    it('gets the __proto__ keys of the structuredContent as data keys, as the server sent them', async () => {
      // The server answers with the arguments as they reached it, as structuredContent.
      const sent = '{"__proto__":{"top":1},"outer":{"__proto__":{"a":1},"b":2},"~__proto__":"as sent"}';
      gateway.send(toolCallLine(2, 'hostile__echo_structured', JSON.parse(sent) as Record<string, unknown>));
      await waitUntil(() => answerTo(gateway.answers, 2) !== undefined, 'the answer to the call');
      const result = answerTo(gateway.answers, 2)?.result as { isError?: boolean; structuredContent?: unknown };
      expect(result.isError).toBe(false);
      expect(JSON.stringify(result.structuredContent)).toBe(sent);
    }, 60_000);
  });

  describe('listing tools', () => {
    it("gets each tool's schemas with their __proto__ keys as the server listed them", async () => {
      gateway.send('{"jsonrpc":"2.0","id":3,"method":"tools/list"}');
      await waitUntil(() => answerTo(gateway.answers, 3) !== undefined, 'the answer to tools/list');
      const answer = answerTo(gateway.answers, 3) as {
        result: { tools: Array<{ name: string; inputSchema: unknown; outputSchema?: unknown }> };
      };
      const { tools } = answer.result;
      const listed = (name: string) => tools.find((tool) => tool.name === name);
      // As the fixture server lists them, the keys in its order.
      expect(JSON.stringify(listed('hostile__proto_tool')?.inputSchema)).toBe(
        '{"type":"object","properties":{"__proto__":{"type":"string","description":"The prototype name."},"name":{"type":"string"}},"required":["__proto__"],"__proto__":{"type":"string"}}',
      );
      const parameter = listed('hostile__proto_parameter');
      expect(JSON.stringify(parameter?.inputSchema)).toBe(
        '{"type":"object","properties":{"__proto__":{"type":"string","maxLength":5},"name":{"type":"string"}},"additionalProperties":false}',
      );
      expect(JSON.stringify(parameter?.outputSchema)).toBe(
        '{"type":"object","properties":{"__proto__":{"type":"string","maxLength":3},"name":{"type":"string"}},"additionalProperties":false}',
      );
      expect(JSON.stringify(listed('hostile__proto_dependencies')?.inputSchema)).toBe(
        '{"type":"object","dependencies":{"__proto__":["name"]}}',
      );
    }, 60_000);
  });
});

describe('the copies made to remove secrets (tools call --json, --trace, the audit log)', () => {
  it('keep __proto__ keys as data keys and set no prototype, with or without secrets to remove', () => {
    const value = JSON.parse('{"__proto__":{"isError":true},"inner":{"__proto__":{"token":"s3cret"}}}');
    for (const secrets of [[], ['s3cret']]) {
      for (const copy of [redactValues(value, { secrets }), redactArguments(value, { secrets })]) {
        expectNothingInherited(copy);
        expect(ownValue(copy, '__proto__')).toEqual({ isError: true });
        expect((copy as { isError?: unknown }).isError).toBeUndefined();
      }
    }
    expect(JSON.stringify(redactValues(value, { secrets: ['s3cret'] }))).toBe(
      '{"__proto__":{"isError":true},"inner":{"__proto__":{"token":"[redacted]"}}}',
    );
  });

  it("keep a real stdio server's structuredContent and the call's arguments whole in tools call --json and the audit log", async () => {
    const config = await hostileServerConfig();
    const stateDir = temporaryFolder();
    // The server answers with the arguments as they reached it, as text and as structuredContent.
    const sent = '{"__proto__":{"top":1},"outer":{"__proto__":{"a":1},"b":2},"~__proto__":"as sent"}';
    const called = await runCli(
      ['tools', 'call', 'hostile__echo_structured', '--args', sent, '--json', '--config', config],
      { stateDir },
    );
    expect(called.stderr).toBe('');
    expect(called.code).toBe(0);
    const printed = JSON.parse(called.stdout) as { result: { structuredContent: unknown } };
    expect(JSON.stringify(printed.result.structuredContent)).toBe(sent);
    expect(await auditedArguments(stateDir)).toEqual([sent]);
  }, 60_000);
});
