/** The host configuration after loading, validation and `${env:VAR}` substitution. */

export type ServerTrust = 'trusted' | 'untrusted';
export type ServerTransportKind = 'stdio' | 'http' | 'sse';
/**
 * How the client negotiates the MCP protocol version. `legacy` (the default) asks for one version and accepts the
 * server's answer; `auto` probes newer versions first, which for a stdio server means starting the process twice.
 */
export type VersionNegotiation = 'legacy' | 'auto';

interface ServerConfigBase {
  /** The key under `mcpServers` (or `servers`). */
  name: string;
  /** Default `untrusted`. */
  trust: ServerTrust;
  /** Per tool call, in milliseconds. Default 60000 (`DEFAULT_TOOL_TIMEOUT_MS`). */
  timeoutMs: number;
  /** A disabled server stays in the list (so it can be shown) but is not started. Default false. */
  disabled: boolean;
  /** Default `legacy` (`DEFAULT_VERSION_NEGOTIATION`). */
  versionNegotiation: VersionNegotiation;
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
  servers: ServerConfig[];
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
}

export const DEFAULT_TOOL_TIMEOUT_MS = 60_000;
/** Node's timers fire at once for delays above 2^31-1 ms, so a larger timeout would mean no timeout at all. */
export const MAX_TOOL_TIMEOUT_MS = 2_147_483_647;
export const DEFAULT_VERSION_NEGOTIATION: VersionNegotiation = 'legacy';
