/**
 * The clients under test, behind one small shape so each benchmark measures them the same way:
 *
 *   const subject = await connectSubject('mcp-host', { transport: 'stdio' });
 *   const text = await subject.call('echo', { text: 'hi' });   // throws unless the call succeeded
 *   await subject.close();
 *
 * - `mcp-host`: `Host.callTool`, the host's full call path (route, authorize against the policy and
 *   trust store, call with a timeout, map and budget the result, write the audit record), with a
 *   state folder of its own.
 * - `sdk`: the raw v2 SDK `Client.callTool` after `listTools` (the baseline).
 * - `ai-sdk`: the Vercel AI SDK MCP client, calling a tool the way `generateText` does: the tool set
 *   from `tools()`, its `execute`, then `toModelOutput` (the AI SDK's own translation #3).
 * - `mcp-use`: mcp-use 1.x's `MCPClient` (`mcp-use/client`), calling a tool the way its agent's tools do: the
 *   session's connector `callTool`, then the result as JSON text for the model. Over stdio only: it starts servers
 *   from their config and has no in-memory transport.
 */
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { createBenchServer } from '../servers/bench-tools.mjs';
import { benchServerConfig, hostConfig, ownSessionServerCommand } from './host-config.mjs';
import { importMcpUse } from './mcp-use.mjs';
import { distUrl, projectDirectory } from './paths.mjs';
import { importPeer } from './peers.mjs';
import { createStateFolder } from './state-folder.mjs';

export const SUBJECT_LABELS = {
  'mcp-host': 'mcp-host (Host.callTool)',
  sdk: 'raw v2 SDK (Client.callTool)',
  'ai-sdk': '@ai-sdk/mcp (tool.execute)',
  'mcp-use': 'mcp-use (connector.callTool)',
};

/** Which transports each subject can be measured on. */
export function supportsTransport(subject, transport) {
  return subject !== 'mcp-use' || transport === 'stdio';
}

/**
 * Large enough for the 100 MB benchmark, for every client that has a limit: the SDK's stdio default (10 MB) and
 * mcp-host's (64 MB) refuse bigger messages.
 */
const MAX_MESSAGE_BYTES = 128 * 1024 * 1024;

/**
 * @param {'mcp-host' | 'sdk' | 'ai-sdk'} subject
 * @param {{ transport: 'stdio' | 'memory', serverNames?: string[], readyAfterMs?: number, hostOptions?: object }} options
 */
export async function connectSubject(subject, options) {
  const serverNames = options.serverNames ?? ['bench'];
  if (subject === 'mcp-host') return connectHost(serverNames, options);
  if (subject === 'sdk') return connectMany(serverNames, (name) => connectSdk(name, options));
  if (subject === 'ai-sdk') return connectMany(serverNames, (name) => connectAiSdk(name, options));
  if (subject === 'mcp-use') return connectMcpUse(serverNames, options);
  throw new Error(`unknown subject "${subject}"; expected mcp-host, sdk, ai-sdk or mcp-use`);
}

/** Loads a subject's modules, so that timing a connection does not also time module loading. */
export async function preloadSubject(subject) {
  if (subject === 'mcp-host') await import(new URL('index.js', distUrl).href);
  if (subject === 'ai-sdk') await Promise.all([importPeer('@ai-sdk/mcp'), importPeer('@ai-sdk/mcp/mcp-stdio')]);
  if (subject === 'mcp-use') await importMcpUse('mcp-use/client');
}

function textOf(content, what) {
  const first = content?.[0];
  if (first?.type !== 'text') throw new Error(`${what}: expected a text result, got ${JSON.stringify(first)}`);
  return first.text;
}

async function connectHost(serverNames, options) {
  const { createHost } = await import(new URL('index.js', distUrl).href);
  const inMemoryServers = [];
  const transportFactory =
    options.transport === 'memory'
      ? (config) => {
          const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
          const server = createBenchServer(config.name);
          inMemoryServers.push(server);
          void server.connect(serverEnd);
          return clientEnd;
        }
      : undefined;
  const diagnostics = [];
  const stateFolder = createStateFolder();
  const host = await createHost({
    config: hostConfig(
      serverNames.map((name) => benchServerConfig(name, { maxMessageBytes: MAX_MESSAGE_BYTES }, options.readyAfterMs)),
    ),
    transportFactory,
    // Its own state folder: the trust store and the JSONL audit log are written as in real use.
    stateDir: stateFolder.path,
    onDiagnostic: (message) => diagnostics.push(message),
    ...options.hostOptions,
  });
  if (host.failures().length > 0) {
    await host.close();
    stateFolder.remove();
    throw new Error(
      `mcp-host failed to connect: ${host
        .failures()
        .map((failure) => failure.message)
        .join('; ')}`,
    );
  }
  return {
    host,
    toolCount: host.catalog().entries.length,
    async call(tool, args, server = serverNames[0]) {
      const executed = await host.callTool(`${server}__${tool}`, args);
      if (executed.outcome !== 'ok') {
        throw new Error(
          `mcp-host call ${tool} ended "${executed.outcome}": ${JSON.stringify(executed.result.content)}`,
        );
      }
      return textOf(executed.result.content, `mcp-host ${tool}`);
    },
    async close() {
      await host.close();
      await Promise.all(inMemoryServers.map((server) => server.close()));
      stateFolder.remove();
    },
  };
}

async function connectMany(serverNames, connectOne) {
  const connections = await Promise.all(serverNames.map((name) => connectOne(name)));
  const byName = new Map(serverNames.map((name, index) => [name, connections[index]]));
  return {
    toolCount: connections.reduce((total, connection) => total + connection.toolCount, 0),
    call: (tool, args, server = serverNames[0]) => byName.get(server).call(tool, args),
    close: () => Promise.all(connections.map((connection) => connection.close())).then(() => undefined),
  };
}

async function connectSdk(name, { transport: transportKind, readyAfterMs }) {
  const client = new Client({ name: 'bench-raw-sdk', version: '0.0.0' });
  let server;
  if (transportKind === 'memory') {
    const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
    server = createBenchServer(name);
    await server.connect(serverEnd);
    await client.connect(clientEnd);
  } else {
    await client.connect(
      new StdioClientTransport({
        ...ownSessionServerCommand(name, readyAfterMs),
        cwd: projectDirectory,
        stderr: 'pipe',
        maxBufferSize: MAX_MESSAGE_BYTES,
      }),
    );
  }
  // As the host does: listing first lets the client validate structured output.
  const { tools } = await client.listTools();
  return {
    toolCount: tools.length,
    async call(tool, args) {
      const result = await client.callTool({ name: tool, arguments: args });
      if (result.isError) throw new Error(`raw SDK call ${tool} failed: ${JSON.stringify(result.content)}`);
      return textOf(result.content, `raw SDK ${tool}`);
    },
    async close() {
      await client.close();
      await server?.close();
    },
  };
}

async function connectAiSdk(name, { transport: transportKind, readyAfterMs }) {
  const { createMCPClient } = await importPeer('@ai-sdk/mcp');
  let server;
  let transport;
  if (transportKind === 'memory') {
    const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
    server = createBenchServer(name);
    await server.connect(serverEnd);
    transport = clientEnd;
  } else {
    const { StdioMCPTransport } = await importPeer('@ai-sdk/mcp/mcp-stdio');
    transport = new StdioMCPTransport({
      ...ownSessionServerCommand(name, readyAfterMs),
      cwd: projectDirectory,
      stderr: 'pipe',
    });
  }
  const client = await createMCPClient({ transport, clientName: 'bench-ai-sdk' });
  const tools = await client.tools();
  let callNumber = 0;
  return {
    toolCount: Object.keys(tools).length,
    async call(tool, args) {
      callNumber += 1;
      const toolCallId = `call-${callNumber}`;
      const output = await tools[tool].execute(args, { toolCallId, messages: [] });
      if (output.isError) throw new Error(`@ai-sdk/mcp call ${tool} failed: ${JSON.stringify(output.content)}`);
      const modelOutput = await tools[tool].toModelOutput({ toolCallId, input: args, output });
      return textOf(modelOutput.value, `@ai-sdk/mcp ${tool}`);
    },
    async close() {
      await client.close();
      await server?.close();
    },
  };
}

/** One `MCPClient` for all the servers, as mcp-use is used: every server in its config, a session each. */
async function connectMcpUse(serverNames, { transport: transportKind, readyAfterMs }) {
  if (transportKind !== 'stdio') throw new Error('mcp-use is measured over stdio only (no in-memory transport)');
  const { MCPClient } = await importMcpUse('mcp-use/client');
  const mcpServers = Object.fromEntries(
    serverNames.map((name) => [name, { ...ownSessionServerCommand(name, readyAfterMs), cwd: projectDirectory }]),
  );
  const client = MCPClient.fromDict({ mcpServers });
  const sessions = await client.createAllSessions();
  const connectors = new Map(serverNames.map((name) => [name, sessions[name].connector]));
  return {
    toolCount: [...connectors.values()].reduce((total, connector) => total + connector.tools.length, 0),
    async call(tool, args, server = serverNames[0]) {
      const result = await connectors.get(server).callTool(tool, args);
      if (result.isError) throw new Error(`mcp-use call ${tool} failed: ${JSON.stringify(result.content)}`);
      // What its agent's tool hands the model: the whole result as JSON text.
      const forModel = JSON.stringify(result);
      if (forModel.length === 0) throw new Error('mcp-use: empty result');
      return textOf(result.content, `mcp-use ${tool}`);
    },
    async close() {
      await client.close();
    },
  };
}
