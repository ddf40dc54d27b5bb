/**
 * Benchmark 9, one measurement: the tools array each client would send a provider for the same servers, counted with
 * the project's estimator (o200k_base). Every client lists the servers itself:
 *
 * - mcp-host: `host.toolDefinitions()` (every definition; tool discovery is a separate choice) through the project's
 *   own translation for each provider, exactly the `tools` its requests carry.
 * - @ai-sdk/mcp: `tools()`; each tool's description and JSON Schema (`inputSchema.jsonSchema`) in the shape the AI SDK's
 *   provider packages give them: OpenAI Chat `{type, function: {name, description, parameters}}`, Responses
 *   `{type, name, description, parameters, strict: false}`, Anthropic `{name, description, input_schema}`, Gemini
 *   `{name, description, parameters}` without `$schema` and `additionalProperties`: the listed information. (The AI
 *   SDK's own Gemini converter drops more — `default`, `minimum`/`maximum`, `title`… — and the real API would refuse
 *   some of what is left in `parameters`, such as `format: "uri"`; see RESULTS.md, section 9.)
 * - mcp-use: its connector's `tools` (the definitions as listed), in the same shapes. Its agent hands them to LangChain,
 *   which is not installed; LangChain sends name, description and the schema, so the listed schema stands for it.
 *
 * Parameters: { sets: [{ key, servers: [{ name, command, args, env, trust }] }] }.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importMcpUse } from '../lib/mcp-use.mjs';
import { distUrl, projectDirectory } from '../lib/paths.mjs';
import { importPeer } from '../lib/peers.mjs';
import { reportResult, workerParameters } from '../lib/run-worker.mjs';

const { sets } = workerParameters();
const { createHost } = await import(new URL('index.js', distUrl).href);
const { estimateTextTokens } = await import(new URL('providers/token-estimate/index.js', distUrl).href);
const { toChatTools } = await import(new URL('providers/openai-chat/to-openai-chat-request.js', distUrl).href);
const { toResponsesTools } = await import(
  new URL('providers/openai-responses/to-openai-responses-request.js', distUrl).href
);
const { toAnthropicRequest } = await import(new URL('providers/anthropic/to-anthropic-request.js', distUrl).href);
const { toGeminiRequest } = await import(new URL('providers/gemini/to-gemini-request.js', distUrl).href);

const PROVIDERS = ['openai-chat', 'openai-responses', 'anthropic', 'gemini'];

/** mcp-host: the `tools` of each provider's request, from the project's own translation. */
function hostTools(definitions) {
  const request = { messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], tools: definitions };
  return {
    'openai-chat': toChatTools(definitions, { local: false }),
    'openai-responses': toResponsesTools(definitions, {}),
    anthropic: toAnthropicRequest(request, { model: 'm', maxOutputTokens: 1024, stream: false }).tools ?? [],
    gemini: toGeminiRequest(request).request.config.tools ?? [],
  };
}

/** A peer's tools, `{name, description, schema}` each, in the shapes the usual provider layers send. */
function peerTools(tools) {
  const described = (tool) => (tool.description ? { description: tool.description } : {});
  const forGemini = (schema) => {
    const { $schema, additionalProperties, ...rest } = schema;
    return rest;
  };
  return {
    'openai-chat': tools.map((tool) => ({
      type: 'function',
      function: { name: tool.name, ...described(tool), parameters: tool.schema },
    })),
    'openai-responses': tools.map((tool) => ({
      type: 'function',
      name: tool.name,
      ...described(tool),
      parameters: tool.schema,
      strict: false,
    })),
    anthropic: tools.map((tool) => ({ name: tool.name, ...described(tool), input_schema: tool.schema })),
    gemini: [
      {
        functionDeclarations: tools.map((tool) => ({
          name: tool.name,
          ...described(tool),
          parameters: forGemini(tool.schema),
        })),
      },
    ],
  };
}

/** `server__tool` → `tool`: the name the server listed, which the peers send as it is. */
const unprefixed = (name) => name.slice(name.indexOf('__') + 2);

const count = (byProvider) =>
  Object.fromEntries(PROVIDERS.map((provider) => [provider, estimateTextTokens(JSON.stringify(byProvider[provider]))]));

async function measureHost(servers) {
  const stateDir = mkdtempSync(join(tmpdir(), 'mcp-host-bench-tokens-'));
  const host = await createHost({
    config: {
      servers: servers.map((server) => ({
        transport: 'stdio',
        cwd: projectDirectory,
        timeoutMs: 60_000,
        disabled: false,
        versionNegotiation: 'legacy',
        ...server,
        env: server.env ?? {},
      })),
      permissions: { allow: [], ask: [], deny: [] },
      secrets: [],
      warnings: [],
    },
    stateDir,
    auditSink: false,
    onDiagnostic: () => undefined,
  });
  try {
    if (host.failures().length > 0) throw new Error(host.failures()[0].message);
    // The servers' tools only: the host's own (reading a stored result) are not part of the comparison.
    const prefixes = servers.map((server) => `${server.name}__`);
    const definitions = host
      .toolDefinitions()
      .filter((tool) => prefixes.some((prefix) => tool.name.startsWith(prefix)));
    return {
      definitions,
      listed: definitions.map((tool) => unprefixed(tool.name)),
    };
  } finally {
    await host.close();
    rmSync(stateDir, { recursive: true, force: true });
  }
}

async function measureAiSdk(servers) {
  const { createMCPClient } = await importPeer('@ai-sdk/mcp');
  const { StdioMCPTransport } = await importPeer('@ai-sdk/mcp/mcp-stdio');
  const tools = [];
  for (const server of servers) {
    const transport = new StdioMCPTransport({
      command: server.command,
      args: server.args,
      env: { ...process.env, ...server.env },
      cwd: projectDirectory,
      stderr: 'ignore',
    });
    const client = await createMCPClient({ transport, clientName: 'bench-ai-sdk' });
    try {
      for (const [name, tool] of Object.entries(await client.tools())) {
        tools.push({ name, description: tool.description, schema: tool.inputSchema.jsonSchema });
      }
    } finally {
      await client.close();
    }
  }
  return tools;
}

async function measureMcpUse(servers) {
  const { MCPClient } = await importMcpUse('mcp-use/client');
  const mcpServers = Object.fromEntries(
    servers.map((server) => [
      server.name,
      { command: server.command, args: server.args, env: server.env ?? {}, cwd: projectDirectory },
    ]),
  );
  const client = MCPClient.fromDict({ mcpServers });
  try {
    const sessions = await client.createAllSessions();
    const tools = servers.flatMap((server) =>
      sessions[server.name].connector.tools.map((tool) => ({
        name: tool.name,
        description: tool.description,
        schema: tool.inputSchema,
      })),
    );
    return tools;
  } finally {
    await client.close();
  }
}

/**
 * The same information: only the tools every client was offered (a server may offer a client more tools for the
 * capabilities it declares — server-everything lists its sampling and elicitation tools to mcp-host only).
 */
const results = {};
for (const set of sets) {
  const host = await measureHost(set.servers);
  const aiSdk = await measureAiSdk(set.servers);
  const mcpUse = await measureMcpUse(set.servers);
  const common = new Set(
    host.listed.filter((name) => aiSdk.some((tool) => tool.name === name) && mcpUse.some((tool) => tool.name === name)),
  );
  const hostDefinitions = host.definitions.filter((tool) => common.has(unprefixed(tool.name)));
  results[set.key] = {
    tools: common.size,
    offered: { 'mcp-host': host.listed.length, 'ai-sdk': aiSdk.length, 'mcp-use': mcpUse.length },
    'mcp-host': count(hostTools(hostDefinitions)),
    // The same translation with the names as the server listed them: what the `server__` prefix costs.
    'mcp-host-unprefixed': count(hostTools(hostDefinitions.map((tool) => ({ ...tool, name: unprefixed(tool.name) })))),
    'ai-sdk': count(peerTools(aiSdk.filter((tool) => common.has(tool.name)))),
    'mcp-use': count(peerTools(mcpUse.filter((tool) => common.has(tool.name)))),
  };
}
reportResult({ results, node: process.version });
