/** The host configuration after loading, validation and `${env:VAR}` substitution. */

import type { GatewayProfile, GatewaySettings } from './gateway-settings.js';

export type ServerTrust = 'trusted' | 'untrusted';
/**
 * How the client negotiates the MCP protocol version. `legacy` (the default) asks for one version and accepts the
 * server's answer; `auto` probes newer versions first, which for a stdio server means starting the process twice.
 */
type VersionNegotiation = 'legacy' | 'auto';

interface ServerConfigBase {
  /** The key under `mcpServers` (or `servers`). */
  name: string;
  /** Default `untrusted`. */
  trust: ServerTrust;
  /** Per tool call, in milliseconds. Default 60000 (`DEFAULT_TOOL_TIMEOUT_MS`). */
  timeoutMs: number;
  /** Start-up and `initialize` (spawn or connect included), in milliseconds. Default 30000. */
  startupTimeoutMs?: number;
  /**
   * The server's `instructions` (from initialize) go into the system prompt. Default: true for a trusted server,
   * false for an untrusted one.
   */
  allowInstructions?: boolean;
  /** A disabled server stays in the list (so it can be shown) but is not started. Default false. */
  disabled: boolean;
  /**
   * Why this server cannot be started, e.g. an environment variable its entry references is not set. Such a server
   * stays in the list and is reported as failed with this reason; the other servers start as usual.
   */
  unavailable?: string;
  /**
   * The server keeps state per connection (a counter, an open browser page, a transaction). A stateless gateway
   * serves one client session's requests to it on one replica, so they reach the same connection. Default false.
   */
  stateful?: boolean;
  /** Default `legacy` (`DEFAULT_VERSION_NEGOTIATION`). */
  versionNegotiation: VersionNegotiation;
  /** Hard maximum for one call while progress notifications keep extending its timeout. */
  maxTotalTimeoutMs?: number;
  /** Output budget for one result of this server's tools, in estimated tokens. */
  maxResultTokens?: number;
  /** Largest single protocol message accepted from the server (stdio line, HTTP body or SSE event), in bytes. */
  maxMessageBytes?: number;
  /** Per-tool overrides, by the tool's original name. */
  tools?: Record<string, ToolOverride>;
}

interface ToolOverride {
  timeoutMs?: number;
  maxTotalTimeoutMs?: number;
  maxResultTokens?: number;
}

export interface StdioServerConfig extends ServerConfigBase {
  transport: 'stdio';
  command: string;
  args: string[];
  env: Record<string, string>;
  /** Absolute; defaults to the folder of the config file. */
  cwd: string;
}

export interface RemoteServerConfig extends ServerConfigBase {
  /** `http` is Streamable HTTP (falling back to legacy SSE when the server speaks only that); `sse` is legacy SSE. */
  transport: 'http' | 'sse';
  url: string;
  headers: Record<string, string>;
  /**
   * OAuth for this server. Absent: OAuth with the defaults (dynamic registration, or a client ID metadata document
   * when `clientMetadataUrl` is set) whenever the server asks for authorization. `false`: never; a 401 is an error.
   */
  oauth?: RemoteOAuthSettings | false;
}

/**
 * How the host obtains tokens: `authorization_code` (the default) has a person authorize in the browser, with
 * PKCE; `client_credentials` is for unattended use, the client authenticating as itself (SEP-1046);
 * `cross_app_access` is enterprise-managed authorization (SEP-990): the person's ID token from their enterprise
 * identity provider is exchanged there for an ID-JAG, and that at the server's authorization server for a token.
 */
export type OAuthGrant = 'authorization_code' | 'client_credentials' | 'cross_app_access';

/**
 * The enterprise identity provider a `cross_app_access` client exchanges the person's ID token at (RFC 8693 token
 * exchange for an ID-JAG). Exactly one of `issuer` and `tokenEndpoint`, and one of `idToken` and `idTokenFile`.
 */
export interface IdentityProviderSettings {
  /** The identity provider's issuer URL; its token endpoint is discovered from its metadata. */
  issuer?: string;
  /** The identity provider's token endpoint, when it is known (no discovery). */
  tokenEndpoint?: string;
  /** This host's client ID at the identity provider. */
  clientId: string;
  /** This host's client secret at the identity provider, if it is a confidential client there. A secret. */
  clientSecret?: string;
  /** The person's ID token, from the environment. A secret. */
  idToken?: string;
  /** Absolute path of a file holding the ID token, read at each exchange so a tool can keep it fresh. */
  idTokenFile?: string;
}

/** JWS algorithms a `private_key_jwt` client assertion can be signed with. */
export const PRIVATE_KEY_SIGNING_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
] as const;
export type PrivateKeySigningAlgorithm = (typeof PRIVATE_KEY_SIGNING_ALGORITHMS)[number];

/** Per-server OAuth settings (`mcpServers.NAME.oauth`). Every field is optional. */
export interface RemoteOAuthSettings {
  /** Default `authorization_code`. */
  grant?: OAuthGrant;
  /** A client registered with the authorization server beforehand; no dynamic registration is attempted. */
  clientId?: string;
  /** The pre-registered client's secret, if it is a confidential client. Treated as a secret. */
  clientSecret?: string;
  /**
   * With `client_credentials`: the client's private key (PKCS #8 PEM), for `private_key_jwt` authentication
   * instead of a secret. Treated as a secret.
   */
  privateKey?: string;
  /** The algorithm the client assertion is signed with; set whenever `privateKey` is. */
  signingAlgorithm?: PrivateKeySigningAlgorithm;
  /** With `cross_app_access`: where the ID-JAG comes from. */
  identityProvider?: IdentityProviderSettings;
  /** Scopes to request when the server does not say which it needs. */
  scopes?: string[];
  /** An `https:` URL of this client's metadata document, used as its client ID where the server supports that. */
  clientMetadataUrl?: string;
  /** Port of the loopback redirect listener (`http://127.0.0.1:PORT/callback`). Default: a free port, kept per server. */
  redirectPort?: number;
}

export type ServerConfig = StdioServerConfig | RemoteServerConfig;

export interface PermissionRules {
  allow: string[];
  ask: string[];
  deny: string[];
}

export interface HostConfig {
  /** Absolute path of the file this came from, if any. */
  file?: string;
  /**
   * The file was found in the working folder (not named with `--config`) and its content is not approved yet
   * (`new`) or changed since it was (`changed`): nothing of it is used until `mcp-host trust config`.
   */
  awaitingApproval?: 'new' | 'changed';
  /** The file was not found in the working folder but named by the saved session being resumed. */
  recordedBySession?: boolean;
  servers: ServerConfig[];
  /**
   * Servers of the file that this command leaves out (`--server NAME`, `tools call`): not started and not in
   * `servers`, so a permission rule naming one of their tools is not reported as matching nothing.
   */
  serversNotStarted?: string[];
  /** `provider:model`, e.g. `anthropic:claude-sonnet-4-6` or `scripted:./script.json` (resolved against the file's folder). */
  model?: string;
  permissions: PermissionRules;
  /**
   * Values that came from environment substitution, and every header value: redacted wherever the host prints or
   * records data. Deduplicated, never empty strings, longest first so a redactor replacing in order never leaves
   * part of a longer secret behind.
   */
  secrets: string[];
  /** Keys the host does not use (other hosts write their own, e.g. `autoApprove`), one message each naming file and key. */
  warnings: string[];
  /** Model turns before a run is stopped. Default 20. */
  maxTurns?: number;
  /** The model's system prompt (the caller's own text; `--system` replaces it). */
  system?: string;
  /** The most tokens the model may write in one response. */
  maxOutputTokens?: number;
  /** Tool calls of one turn in flight at once. Default 8. */
  maxParallelCalls?: number;
  /** Default hard maximum for a call whose progress keeps extending its timeout. Default 10 minutes. */
  maxTotalTimeoutMs?: number;
  /** Output budget for one tool result, in estimated tokens. Default 25,000. */
  maxResultTokens?: number;
  /** Output budget for all results of one turn together, in estimated tokens. */
  maxTurnResultTokens?: number;
  /** A conversation's context window, in estimated tokens (default: known per model, else 128,000). */
  contextTokens?: number;
  /** Prices by `provider:model`, over the built-in table (`KNOWN_MODEL_PRICES`). */
  modelPrices?: Record<string, ModelPrice>;
  /** Where the audit log is written; relative to the config file. Default: audit.jsonl in the state directory. */
  auditFile?: string;
  /** Folders servers may work in, as `file://` URIs, answered on `roots/list`. Absent: the roots capability is not declared. */
  roots?: string[];
  /** Which model answers servers' `sampling/createMessage`. Default: the host's own model. */
  sampling?: SamplingSettings;
  /**
   * Extra folders of Agent Skills (absolute): each one skill (holding SKILL.md) or a folder of skill folders. `false`:
   * no skills at all, not even those beside the config or in the user's folder. Default: those two only.
   */
  skills?: string[] | false;
  /** Project instructions (AGENTS.md, CLAUDE.md) and the project memory in the system prompt. Default true. */
  instructions?: boolean;
  /** Bound on the instructions and memory together, in tokens (o200k estimate). Default 8,000. */
  maxInstructionTokens?: number;
  /**
   * Offer search, describe and call meta-tools instead of every tool definition: "auto" (default) when the
   * definitions exceed 10,000 estimated tokens, "always", or "never". In the host's loop and in `mcp-host serve`.
   */
  toolDiscovery?: ToolDiscovery;
  /**
   * When discovery is in force in the host's own loop, whether a model whose provider searches deferred tools
   * itself (Anthropic's tool search, OpenAI Responses' `tool_search`) gets every definition deferred to that search
   * instead of the meta-tools: "auto" (default) for the models each provider lists, "always" for any model of those
   * two providers, "never" for the meta-tools everywhere. Other providers always get the meta-tools.
   */
  nativeToolSearch?: NativeToolSearch;
  /**
   * `openai:` and `openai-responses:` models: ask OpenAI for strict mode on each tool whose schema can be strict
   * (`strict: true`, the schema rewritten with every object closed and every property required). Default false.
   * Other providers have no such mode and ignore it; local OpenAI-compatible servers get no strict schemas.
   */
  strictTools?: boolean;
  /** `mcp-host serve`: authentication and limits of the HTTP gateway. */
  gateway?: GatewaySettings;
  /** `mcp-host serve --profile NAME`: named subsets of servers and tools with their own permissions. */
  profiles?: Record<string, GatewayProfile>;
}

export type ToolDiscovery = 'auto' | 'always' | 'never';

export type NativeToolSearch = 'auto' | 'always' | 'never';

/** The `sampling` key: the model that answers servers' sampling requests, when not the host's own. */
export interface SamplingSettings {
  /** `provider:model` for every server's sampling; default the host's model. */
  model?: string;
  /** `provider:model` per server name; wins over `model` and `hints`. */
  servers: Record<string, string>;
  /** A model-name hint from the server (`modelPreferences.hints`, matched as a substring) → `provider:model`. */
  hints: Record<string, string>;
  /** Whether the host lets servers offer tools inside sampling (declares `sampling.tools`). Default true. */
  tools: boolean;
}

export const DEFAULT_TOOL_TIMEOUT_MS = 60_000;
/** Node's timers fire at once for delays above 2^31-1 ms, so a larger timeout would mean no timeout at all. */
export const MAX_TOOL_TIMEOUT_MS = 2_147_483_647;
export const DEFAULT_VERSION_NEGOTIATION: VersionNegotiation = 'legacy';

/** What a model costs, in US dollars per million tokens. Cached input defaults to the input price. */
export interface ModelPrice {
  inputPerMillion: number;
  outputPerMillion: number;
  cachedInputPerMillion?: number;
}
