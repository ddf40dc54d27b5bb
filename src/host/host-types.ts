/** The library's options and the host's shape: what `createHost` takes and gives back. */
import type { LoggingLevel } from '@modelcontextprotocol/client';
import type { CallingClient, CallOrigin } from '../audit/audit-record.js';
import type { AuditSink } from '../audit/audit-sink.js';
import type { ToolCatalog } from '../catalog/tool-catalog.js';
import type { ClientFeaturesOptions } from '../client-features/client-features.js';
import type { ClientRequestApprover } from '../client-features/client-request-approver.js';
import type { ServerFeatureAccess } from '../client-features/server-feature-access.js';
import type { ServerLogEntry } from '../client-features/server-log.js';
import type { ApprovalsPlace } from '../config/trust-commands.js';
import type { HostConfig } from '../config/types.js';
import type { ServerConnection, ServerConnectionOptions, ServerStatus } from '../connections/server-connection.js';
import type { AgentEvent } from '../loop/events.js';
import type { RunResult } from '../loop/run-agent.js';
import type { ExecutedToolCall, ToolProgressUpdate } from '../loop/tool-call-types.js';
import type { Approver } from '../policy/approver.js';
import type { TrustStore } from '../policy/trust-store.js';
import type { LlmProvider, Message, ToolDefinition, UserPart } from '../providers/types.js';
import type { Conversation, ConversationOptions } from '../sessions/conversation-types.js';
import type { ComposedSystemPrompt } from '../skills/compose-system-prompt.js';
import type { Skill, SkillProblem } from '../skills/discover-skills.js';
import type { WithheldSkill } from '../skills/review-skills.js';

export interface HostOptions {
  /**
   * Opens an OAuth authorization URL for a remote server that asks for it. Default: the system browser on a desktop,
   * nothing when headless (the URL is then reported through `onDiagnostic` for the user to open).
   */
  openAuthorizationUrl?: ((url: string) => Promise<void>) | false;
  /**
   * A config file path; a config object in the file's own format (`{ mcpServers: { … } }`), checked as a file's
   * content is; or a config already loaded (`loadConfig`). Default: `mcp-host.json`, then `.mcp.json` in `cwd`.
   */
  config?: string | HostConfig | Record<string, unknown>;
  cwd?: string;
  /** `provider:model`; overrides the config's `model`. */
  model?: string;
  /** A provider built by the caller; overrides `model`. */
  provider?: LlmProvider;
  baseUrl?: string;
  env?: Record<string, string | undefined>;
  /**
   * The caller's own system text (default: the config's `system`); project instructions, memory, servers'
   * instructions and the skills listing follow it.
   */
  system?: string;
  /** False: leave out AGENTS.md / CLAUDE.md and the project memory for this host (`--no-instructions`). Default true. */
  instructions?: boolean;
  /** The most tokens the model may write in one response. Default: the config's `maxOutputTokens`, else the provider's. */
  maxOutputTokens?: number;
  /** Default: the config's `maxTurns`, else 20 (DEFAULT_MAX_TURNS). */
  maxTurns?: number;
  /** Default: the config's `maxParallelCalls`, else 8 (DEFAULT_MAX_PARALLEL_CALLS). */
  maxParallelCalls?: number;
  /** Stream model output as it arrives. Default true. */
  stream?: boolean;
  /** Overrides every server's `timeoutMs` (a per-tool override still wins). */
  toolTimeoutMs?: number;
  /**
   * How long a turn, or a call to a server that said its tools changed, waits for that server to list them again
   * before going on without the new list (a call is then refused). Default 5,000 ms.
   */
  relistWaitMs?: number;
  /** Per result, in estimated tokens. Default: the config's `maxResultTokens`, else 25,000. */
  maxResultTokens?: number;
  /** Who is asked before a call that needs consent. Default: nobody (headless: such calls are denied). */
  approver?: Approver;
  /** The state folder (trust store, audit log, stored results). Default `MCP_HOST_STATE_DIR`, then the XDG state home. */
  stateDir?: string;
  /** The audit log file. Default: the config's `auditFile`, `MCP_HOST_AUDIT_FILE`, then `audit.jsonl` in the state folder. */
  auditFile?: string;
  /** A sink of the caller's for audit records; `false` keeps them in memory only. */
  auditSink?: AuditSink | false;
  /** A trust store of the caller's (e.g. `TrustStore.inMemory()`). */
  trustStore?: TrustStore;
  /** Non-fatal problems (a server that failed to start, stdout noise, withheld tools…), for stderr. */
  onDiagnostic?: (message: string) => void;
  /**
   * Whether the warning of a call sent once more after its server went away says how the server went (the exit code
   * or signal, the stderr tail). Default: only when there is no `onDiagnostic`, which reports the exit as it happens.
   * True where the warnings reach someone who does not read `onDiagnostic` (the web UI: warnings go to the page,
   * diagnostics to the terminal).
   */
  warningsSayServerExits?: boolean;
  /** Connect some servers over a transport of the caller's (e.g. in-memory, for tests and benchmarks). */
  transportFactory?: ServerConnectionOptions['transportFactory'];
  /** Folders offered to servers as roots (paths or file:// URIs). Default: the config's `roots`, else none (the roots
   * capability is then not declared). */
  roots?: string[];
  /** Who answers servers' sampling and elicitation requests. Default: headless (sampling denied, forms declined). */
  clientRequestApprover?: ClientRequestApprover;
  /** With no `clientRequestApprover`: let servers use the model for sampling without asking. Default false. */
  allowSampling?: boolean;
  /**
   * Aborts start-up (connecting, listing, reviewing tools): `createHost` then closes what it started and rejects.
   * After start-up it stops reviews of re-listed tools. The CLI passes its Ctrl-C / SIGTERM handling here.
   */
  signal?: AbortSignal;
  /**
   * Every log message a server sends (they are also appended to a per-server log in the state folder). `call`: the
   * call it came with, as the caller named it (see connections/call-streams.ts), when the transport can tell.
   */
  onServerLog?: (entry: ServerLogEntry, call?: object) => void;
  /** A resource subscribed to with `host.resources.subscribe` changed (`notifications/resources/updated`). */
  onResourceUpdated?: (update: { server: string; uri: string }) => void;
  /** Progress a server reports for a running tool call. */
  onProgress?: (update: ToolProgressUpdate) => void;
  /**
   * A server said its tools changed (`notifications/tools/list_changed`; `refreshCatalog()` re-reads them), or its tools
   * came or went as `restartServer`, `disableServer` or `enableServer` started or stopped it (already re-read). The
   * host's own tools changing is told as `mcp-host`'s (the first stored result adds the tool that reads stored results).
   */
  onToolsChanged?: (server: string) => void;
  /** Elicitation modes, URL opener, server log folder, forwarding (see ClientFeaturesOptions). */
  clientFeatures?: Pick<
    ClientFeaturesOptions,
    'elicitation' | 'openUrl' | 'serverLogDirectory' | 'forwarder' | 'onListChanged'
  >;
}

export interface RunOptions {
  signal?: AbortSignal;
  onEvent?: (event: AgentEvent) => void;
  /** Earlier conversation to continue; the prompt is appended. */
  history?: Message[];
  images?: UserPart[];
  /** Start from a server prompt (`mcp-host run --prompt server:NAME`): its messages open the conversation. */
  prompt?: { server?: string; name: string; arguments?: Record<string, string> };
  /** The model for this run instead of the host's (a conversation after `setModel`). */
  provider?: LlmProvider;
  /** Each message added to the conversation (the user's, then every completed one of the loop's), in order. */
  onMessage?: (message: Message) => void;
}

export type { Conversation, ConversationOptions } from '../sessions/conversation-types.js';

interface CallToolOptions {
  signal?: AbortSignal;
  /** The downstream MCP client making the call (gateway); recorded in the audit. */
  client?: CallingClient;
  /**
   * `app`: an MCP App view asked for the call (the web UI). The policy applies as for the model's calls, asking the
   * approver; the app's own tools (`_meta.ui.visibility: ["app"]`) are callable; audited with `origin: app`.
   */
  origin?: CallOrigin;
  /** Progress the server reports for this call. */
  onProgress?: (update: ToolProgressUpdate) => void;
  /**
   * What a run would tell as a `tool-call-warning` event about this call, e.g. that it is sent once more after its
   * server went away. Without it, nobody hears them. A downstream `client`'s call hears only those of the call once
   * sent to its server: the policy's warnings about the tool go to whoever is asked to approve it.
   */
  onWarning?: (message: string) => void;
}

/**
 * A server's state, plus the listed tools the host cannot run (they require MCP tasks, or their input schema passes the
 * bounds on resolving `$ref`/`allOf`) and why.
 */
export interface HostServerStatus extends ServerStatus {
  /** Switched off for this host (`disableServer`, or `"disabled": true` in the config until `enableServer`). */
  disabled?: boolean;
  unsupportedTools?: ReadonlyArray<{ name: string; tool: string; reason: string }>;
}

export interface Host {
  readonly config: HostConfig;
  /** Ties this host's audit records together. */
  readonly runId: string;
  readonly stateDir: string;
  /** Where this host's approvals are kept, as the approve commands it prints name it (see `trustApproveCommand`). */
  readonly approvals: ApprovalsPlace;
  /** The catalog in force (it changes between turns when servers change their tools). */
  catalog(): ToolCatalog;
  servers(): HostServerStatus[];
  /**
   * Stops one server and starts it afresh (a new process or session); its tools are listed again and reviewed
   * against the trust store before the returned promise resolves.
   */
  restartServer(server: string): Promise<HostServerStatus>;
  /**
   * Switches a server off for this host only (the config file is not changed): it is closed, its tools, resources
   * and prompts are no longer offered. Audited as a `server-exit` with reason `disabled`.
   */
  disableServer(server: string): Promise<HostServerStatus>;
  /** Switches a server on again (one the config disables too, for this host only): started and its tools reviewed. */
  enableServer(server: string): Promise<HostServerStatus>;
  failures(): ReadonlyArray<{ server: string; message: string }>;
  toolDefinitions(): ToolDefinition[];
  /** The system prompt a run would send now, part by part with token costs (instructions are read again). */
  systemPrompt(): ComposedSystemPrompt;
  /** The skills offered to the model, those withheld (and why), and those that could not be read. */
  skills(): { offered: Skill[]; withheld: WithheldSkill[]; problems: SkillProblem[] };
  /** The config's folder (the working folder without a config): where `.mcp-host/memory.md` lives. */
  readonly projectFolder: string;
  connection(server: string): ServerConnection | undefined;
  /**
   * Asks every server that logs for this level (`logging/setLevel`), each only when its session did not take it
   * already; a server started later (switched on again, or restarted after it was set) is asked once it is up.
   */
  setServersLoggingLevel(level: LoggingLevel): Promise<void>;
  /**
   * Resolves once this server was asked for the level last set with `setServersLoggingLevel`, where it is to be: a
   * call to it waits for that, and not for servers slow to answer that it does not call.
   */
  serverLoggingLevelAsked(server: string): Promise<void>;
  /**
   * Asks one connected server for this level (`logging/setLevel`), kept for it: the server switched off and on, or
   * restarted, is asked it again, until `setServersLoggingLevel` asks all servers for one.
   */
  setServerLoggingLevel(server: string, level: LoggingLevel): Promise<void>;
  /** The model, created on first use (listing tools needs none). */
  provider(): Promise<LlmProvider>;
  run(prompt: string, options?: RunOptions): Promise<RunResult>;
  stream(prompt: string, options?: Omit<RunOptions, 'onEvent'>): AsyncIterable<AgentEvent>;
  /**
   * A multi-turn conversation saved as it goes in `<stateDir>/sessions/`: new, or resumed (`sessionId`, or
   * `continueLast` for the newest one held with this config).
   */
  conversation(options?: ConversationOptions): Promise<Conversation>;
  /**
   * Calls one tool directly, as the user's own act (deny rules apply; nobody is asked; audited). With `client`,
   * the call is a downstream MCP client's (the gateway): the policy applies as for the model, asking the approver,
   * and a structured result's text blocks are kept as the server sent them (the client gets `structuredContent`
   * beside them, where a model is given its JSON in their place).
   */
  callTool(name: string, args: Record<string, unknown>, options?: CallToolOptions): Promise<ExecutedToolCall>;
  /**
   * The whole text of one of this session's stored results (a cut result, or a text kept out of memory: an id from
   * `ExecutedToolCall.spilledTexts`), in pieces read from its file as they are asked for. Throws
   * `ResultStoreError` for an id it does not hold or a text it could not keep.
   */
  readStoredText(id: string): AsyncIterable<string>;
  /** Why a tool the servers list is not in the catalog (withheld until approved, and the command that approves it). */
  withheldReason(name: string): string | undefined;
  /** The same told to the person who called the tool by name: what is withheld, why, and the command that approves it. */
  withheldNotice(name: string): string | undefined;
  /** The catalog after re-reading every server whose tools changed since the last turn or refresh. */
  refreshCatalog(): Promise<ToolCatalog>;
  /** Lists one server's tools again and reviews them against the trust store (after an approval made elsewhere). */
  reviewTools(server: string): Promise<ToolCatalog>;
  close(): Promise<void>;
  /** Servers' resources and prompts, and the roots offered to them. */
  readonly resources: ServerFeatureAccess['resources'];
  readonly prompts: ServerFeatureAccess['prompts'];
  readonly roots: ServerFeatureAccess['roots'];
}
