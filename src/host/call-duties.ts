/**
 * The host's duties around one tool call, built from its state: consent (policy × trust ×
 * approver), the audit record, and shaping the result (content mapping, output budget).
 * The loop calls these through `createToolCallExecutor`; none of them holds loop logic.
 */
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { CallingClient, CallOrigin, ToolCallOutcome } from '../audit/audit-record.js';
import type { AuditRecorder } from '../audit/audit-recorder.js';
import { redactArguments, redactArgumentText, redactText, SECRET_KEY_PATTERN } from '../audit/redact.js';
import type { CatalogEntry } from '../catalog/tool-catalog.js';
import type { ToolProgressUpdate } from '../client-features/terminal-client-features.js';
import type { HostConfig, ServerConfig, ServerTrust } from '../config/types.js';
import { budgetToolResult } from '../content/budget-tool-results.js';
import { mapToolResult } from '../content/map-tool-result.js';
import { DEFAULT_RESULT_TOKEN_BUDGET } from '../content/output-budget.js';
import type { ResultStore } from '../content/result-store.js';
import { MAX_JSON_DEPTH, stringifyJsonWithinDepth } from '../json/json-depth.js';
import type { CallRecord, ShapedResult } from '../loop/execute-tool-call.js';
import type { ExecuteToolCall, ToolCallContext } from '../loop/tool-call-types.js';
import type { Approver } from '../policy/approver.js';
import { type Authorization, authorizeToolCall, type ToolCallToAuthorize } from '../policy/authorize-tool-call.js';
import { crossReferenceNames } from '../policy/review-server-tools.js';
import type { RunApprovals } from '../policy/run-approvals.js';
import type { TrustStore } from '../policy/trust-store.js';

export interface CallDutiesOptions {
  config: HostConfig;
  approver: Approver;
  trustStore: TrustStore;
  /** "For this run" answers, kept until the host closes. */
  runApprovals?: RunApprovals;
  results: ResultStore;
  catalogEntries: () => readonly CatalogEntry[];
  /** `user`: calls made directly by the user (`tools call`): deny rules apply, nothing asks. */
  initiator: 'model' | 'user';
  maxResultTokens?: number;
  maxTurnResultTokens?: number;
  /**
   * The run's secret values (the config's, to start with), redacted from the audit log. Values the model sends
   * under secret-looking keys are added as calls are authorized; see `rememberArgumentSecrets`.
   */
  secrets?: string[];
}

/** The loop's context plus the id of the call (added by `withCallId`; the loop hands the context on untouched). */
export interface HostCallContext extends ToolCallContext {
  callId?: string;
  /** The downstream MCP client making the call through the gateway; recorded in the audit. */
  client?: CallingClient;
  /** `app`: an MCP App view asked for the call; recorded in the audit. */
  origin?: CallOrigin;
  /** Where this call's progress goes, instead of the host's `onProgress`. */
  onProgress?: (update: ToolProgressUpdate) => void;
}

/** So the approver is shown, and the approval record carries, the provider's id of the call being decided. */
export function withCallId(execute: ExecuteToolCall): ExecuteToolCall {
  return (call, context) => execute(call, { ...context, callId: call.id } as HostCallContext);
}

/** Shorter values would redact ordinary words all over the log. */
const MIN_REMEMBERED_SECRET_LENGTH = 6;

/**
 * Adds to `secrets` every string filed under a secret-looking key in `args` (`password`, `apiKey`, `token` …).
 * The call's own record redacts such keys anyway; remembering the values also keeps them out of text the host
 * records later, such as a server's stderr tail when it echoes its arguments and then crashes.
 */
export function rememberArgumentSecrets(args: unknown, secrets: string[], underSecretKey = false, depth = 0): void {
  if (typeof args === 'string') {
    if (underSecretKey && args.length >= MIN_REMEMBERED_SECRET_LENGTH && !secrets.includes(args)) secrets.push(args);
    return;
  }
  // Past the depth bound the call is refused anyway; stopping here keeps the walk off the end of the stack.
  if (typeof args !== 'object' || args === null || depth >= MAX_JSON_DEPTH) return;
  for (const [key, value] of Object.entries(args)) {
    const secret = underSecretKey || (!Array.isArray(args) && SECRET_KEY_PATTERN.test(key));
    rememberArgumentSecrets(value, secrets, secret, depth + 1);
  }
}

export function serverConfigOf(config: HostConfig, server: string): ServerConfig | undefined {
  return config.servers.find((candidate) => candidate.name === server);
}

/**
 * The trust a call is decided under. A tool no configured server owns is the host's own (reading a stored result):
 * it is as trusted as the host. Every other tool has its server's trust, the host's resource tools included:
 * reading a resource hands the server's data to the model like any tool result, so it is a call like any other.
 */
export function trustOf(config: HostConfig, entry: CatalogEntry): ServerTrust {
  const server = serverConfigOf(config, entry.server);
  return server === undefined ? 'trusted' : server.trust;
}

function toAuthorize(entry: CatalogEntry, args: unknown, callId?: string): ToolCallToAuthorize {
  return {
    ...(callId === undefined ? {} : { callId }),
    toolName: entry.name,
    serverName: entry.server,
    originalToolName: entry.tool.name,
    arguments: args,
    tool: entry.tool,
  };
}

/** Other servers' tool names per catalog (a catalog is immutable, so its array identity keys the cache). */
const crossReferenceCache = new WeakMap<readonly CatalogEntry[], Map<string, string[]>>();

function otherServerToolNames(entries: readonly CatalogEntry[], server: string): string[] {
  let byServer = crossReferenceCache.get(entries);
  if (!byServer) {
    byServer = new Map();
    crossReferenceCache.set(entries, byServer);
  }
  let names = byServer.get(server);
  if (!names) {
    names = crossReferenceNames(entries, server);
    byServer.set(server, names);
  }
  return names;
}

export function createAuthorize(options: CallDutiesOptions, audit: () => AuditRecorder) {
  return async (
    entry: CatalogEntry,
    args: Record<string, unknown>,
    context: ToolCallContext,
  ): Promise<Authorization> => {
    if (options.secrets) rememberArgumentSecrets(args, options.secrets);
    const call = toAuthorize(entry, args, (context as HostCallContext).callId);
    const authorization = await authorizeToolCall({
      call,
      trust: trustOf(options.config, entry),
      rules: options.config.permissions,
      approver: options.approver,
      remembered: options.trustStore,
      ...(options.runApprovals === undefined ? {} : { runApprovals: options.runApprovals }),
      initiator: options.initiator,
      otherServerToolNames: otherServerToolNames(options.catalogEntries(), entry.server),
      signal: context.signal,
    });
    await audit().approval(call, authorization);
    return authorization;
  };
}

/** Not authorized by the policy (an unknown tool, invalid arguments): the record says it never ran. */
function notRunAuthorization(reason: string, trust: ServerTrust | undefined): Authorization {
  return {
    allowed: false,
    ...(trust === undefined ? {} : { trust }),
    decision: { action: 'deny', reason, source: 'default', warnings: [], safeToRetry: false },
    decidedBy: 'default',
    reason,
    warnings: [],
    hiddenContent: [],
  };
}

export function createRecord(
  config: HostConfig,
  audit: () => AuditRecorder,
  secrets: readonly string[] = config.secrets,
) {
  return async (record: CallRecord): Promise<void> => {
    const entry = record.entry;
    const call: ToolCallToAuthorize = entry
      ? { ...toAuthorize(entry, record.arguments ?? record.call.argumentsText, record.call.id) }
      : {
          callId: record.call.id,
          toolName: record.call.name,
          serverName: '',
          originalToolName: record.call.name,
          arguments: record.call.argumentsText,
        };
    // Raw text (an unknown tool, arguments that did not parse) has no keys to go by: its secret-named values are
    // found in the text itself.
    call.arguments =
      typeof call.arguments === 'string'
        ? redactArgumentText(call.arguments, secrets)
        : redactArguments(call.arguments, { secrets });
    const authorization =
      record.authorization ??
      notRunAuthorization(
        record.error ?? 'not run: the call could not be routed or its arguments did not parse',
        entry ? trustOf(config, entry) : undefined,
      );
    const outcome: ToolCallOutcome = record.outcome === 'invalid' ? 'error' : record.outcome;
    const ran = record.outcome !== 'denied' && record.outcome !== 'invalid';
    const { client, origin } = record.context as HostCallContext;
    await audit().toolCall({
      call,
      authorization,
      ...(ran ? { startedAt: record.startedAt, durationMs: record.durationMs } : {}),
      outcome,
      ...(record.shaped.resultBytes === undefined ? {} : { resultBytes: record.shaped.resultBytes }),
      ...(record.shaped.cut === undefined ? {} : { truncated: record.shaped.cut }),
      ...(record.error === undefined ? {} : { error: redactText(record.error, secrets) }),
      ...(client === undefined ? {} : { client }),
      ...(origin === undefined ? {} : { origin }),
    });
  };
}

export function createShapeResult(options: CallDutiesOptions) {
  return (raw: CallToolResult, entry: CatalogEntry, context: ToolCallContext): ShapedResult => {
    const mapped = mapToolResult(raw, { outputSchema: entry.tool.outputSchema });
    const server = serverConfigOf(options.config, entry.server);
    const perResult =
      server?.tools?.[entry.tool.name]?.maxResultTokens ??
      server?.maxResultTokens ??
      options.maxResultTokens ??
      options.config.maxResultTokens ??
      DEFAULT_RESULT_TOKEN_BUDGET;
    // The per-turn total is shared evenly by the turn's calls, decided before any of them ends.
    const turnTotal = options.maxTurnResultTokens ?? options.config.maxTurnResultTokens;
    const share =
      turnTotal === undefined
        ? perResult
        : Math.min(perResult, Math.floor(turnTotal / Math.max(1, context.callsInTurn)));
    const budgeted = budgetToolResult(mapped.content, { store: options.results, maxTokensPerResult: share });
    return {
      content: budgeted.content,
      isError: mapped.isError,
      cut: budgeted.cut,
      resultBytes: resultSize(raw),
    };
  };
}

/**
 * The size of a result's payload in bytes: text as UTF-8, binary data as its base64, anything else as JSON.
 * Counted block by block so a 50 MB result is not serialised a second time just to be measured.
 */
function resultSize(raw: CallToolResult): number {
  let bytes = 0;
  for (const block of raw.content ?? []) {
    if (block.type === 'text') bytes += Buffer.byteLength(block.text);
    else if (block.type === 'image' || block.type === 'audio') bytes += block.data.length;
    else bytes += Buffer.byteLength(stringifyJsonWithinDepth(block) ?? '');
  }
  if (raw.structuredContent !== undefined) {
    bytes += Buffer.byteLength(stringifyJsonWithinDepth(raw.structuredContent) ?? '');
  }
  return bytes;
}
