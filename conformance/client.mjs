#!/usr/bin/env node
/**
 * The client under test for the official MCP conformance suite. The suite's runner starts a scenario's server and
 * runs this file with the server's URL as its last argument and the scenario's name in MCP_CONFORMANCE_SCENARIO.
 *
 * It is a thin driver over the host's own connection layer (`createTransport`, `createRemoteAuthorization`), built
 * to dist/ by `npm run build`: it connects, lists the tools and calls each one, as a host would. What it adds is
 * only what a person would otherwise supply: a browser that follows the authorization redirect, the pre-registered
 * credentials a scenario hands over in MCP_CONFORMANCE_CONTEXT (as the server's `oauth` settings), and a user who
 * accepts an elicitation form as is.
 * It runs on the project's Node (20); only the runner needs Node 22.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTransport } from '../dist/src/connections/create-transport.js';
import { createRemoteAuthorization } from '../dist/src/connections/oauth/remote-authorization.js';

/** The client ID metadata document URL the suite's CIMD scenarios expect a client to present. */
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';

const serverUrl = process.argv.at(-1);
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}');
/** Set when the runner runs a scenario at a given revision's wire (`--spec-version`). */
const protocolVersion = process.env.MCP_CONFORMANCE_PROTOCOL_VERSION;

function log(message) {
  process.stderr.write(`[conformance client] ${message}\n`);
}

/** Stands in for the user's browser: goes to the authorization URL and follows its redirect to the host's listener. */
async function browser(url) {
  const response = await fetch(url);
  await response.text();
}

/** Arguments for a tool, made from its input schema: small numbers, a word, true. */
function sampleArguments(tool) {
  const properties = tool.inputSchema?.properties ?? {};
  const values = {};
  let next = 2;
  for (const [name, schema] of Object.entries(properties)) {
    const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
    if (schema.default !== undefined) values[name] = schema.default;
    else if (type === 'number' || type === 'integer') values[name] = next++;
    else if (type === 'boolean') values[name] = true;
    else if (type === 'string') values[name] = schema.enum?.[0] ?? 'hello';
    else if (type === 'array') values[name] = [];
    else if (type === 'object') values[name] = {};
  }
  return values;
}

/**
 * The server's `oauth` settings a user would write for the scenario: unattended for the client-credentials ones;
 * for cross-app access, the person's ID token and the identity provider's token endpoint that the scenario hands
 * over (its OpenID metadata lacks fields the spec requires, so it is not discovered from the issuer).
 */
function oauthSettings() {
  // The released suite's name for it, and the 2026-07-28 suite's (where it is an extension, run but not scored).
  if (scenario.startsWith('auth/cross-app-access-') || scenario === 'auth/enterprise-managed-authorization') {
    return {
      grant: 'cross_app_access',
      clientId: context.client_id,
      clientSecret: context.client_secret,
      identityProvider: {
        tokenEndpoint: context.idp_token_endpoint,
        clientId: context.idp_client_id,
        idToken: context.idp_id_token,
      },
    };
  }
  if (scenario.startsWith('auth/client-credentials-')) {
    const settings = { grant: 'client_credentials', clientId: context.client_id };
    if (context.client_secret !== undefined) settings.clientSecret = context.client_secret;
    if (context.private_key_pem !== undefined) {
      settings.privateKey = context.private_key_pem;
      settings.signingAlgorithm = context.signing_algorithm;
    }
    return settings;
  }
  const settings = { clientMetadataUrl: CLIENT_METADATA_URL };
  if (context.client_id !== undefined) settings.clientId = context.client_id;
  if (context.client_secret !== undefined) settings.clientSecret = context.client_secret;
  return settings;
}

async function main() {
  if (!serverUrl?.startsWith('http')) throw new Error('usage: client.mjs <server URL> (run by the conformance suite)');
  const stateDirectory = await mkdtemp(join(tmpdir(), 'mcp-host-conformance-'));
  const config = {
    name: 'conformance',
    transport: 'http',
    url: serverUrl,
    headers: {},
    trust: 'untrusted',
    timeoutMs: 60_000,
    disabled: false,
    // The 2026-07-28 revision is stateless (no initialize handshake): the host reaches it by probing (`auto`).
    versionNegotiation: protocolVersion !== undefined && protocolVersion >= '2026' ? 'auto' : 'legacy',
    oauth: oauthSettings(),
  };
  const authorization = createRemoteAuthorization({
    stateDirectory,
    openUrl: browser,
    authorizationTimeoutMs: 60_000,
    onAuthorizationRequired: (request) => log(`authorizing ${request.server} at ${request.url}`),
  });
  let connection;
  try {
    connection = await createTransport(config, {
      connectTimeoutMs: 60_000,
      clientInfo: { name: 'mcp-host-conformance', version: '1.0.0' },
      onDiagnostic: (message) => log(message),
      onToolsChanged: () => undefined,
      authorization,
      // The form is accepted as sent: the client fills in the schema's defaults (applyDefaults).
      capabilities: { elicitation: { form: { applyDefaults: true } } },
      configureClient: (client) => {
        client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: {} }));
      },
    });
    log(`connected (${scenario}), protocol ${connection.client.getNegotiatedProtocolVersion()}`);
    const { tools } = await connection.client.listTools();
    log(`tools: ${tools.map((tool) => tool.name).join(', ') || 'none'}`);
    for (const tool of tools) {
      const result = await connection.client.callTool({ name: tool.name, arguments: sampleArguments(tool) });
      log(`${tool.name} → ${JSON.stringify(result.content).slice(0, 200)}`);
    }
  } finally {
    await connection?.client.close().catch(() => undefined);
    await rm(stateDirectory, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : '';
    log(`failed: ${error instanceof Error ? error.message : String(error)}${cause}`);
    process.exit(1);
  },
);
