/**
 * One tool call from the model, through every duty the host owes it, in order:
 * route → parse → check the arguments → authorize → call with a timeout → map and budget the result → record.
 * Each duty is a dependency, so the loop stays wiring and each duty is tested on its own.
 */
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { CatalogEntry, ToolCatalog } from '../catalog/tool-catalog.js';
import { CallFailure, type RequiredUrlElicitation } from '../connections/call-failure.js';
import type { CallToolOptions } from '../connections/server-connection.js';
import type { ServerExit } from '../connections/server-exit.js';
import type { SpilledText } from '../connections/spilled-text.js';
import { describeTooDeep, exceedsJsonDepth } from '../json/json-depth.js';
import type { Authorization } from '../policy/authorize-tool-call.js';
import type { ToolCallPart, ToolResult, ToolResultPart } from '../providers/types.js';
import type { CallOutcome } from './events.js';
import { parseToolArguments } from './parse-tool-arguments.js';
import type { ExecutedToolCall, ToolCallContext } from './tool-call-types.js';
import { unknownToolText } from './unknown-tool-text.js';

interface CallableServer {
  callTool(name: string, args: Record<string, unknown>, options: CallToolOptions): Promise<CallToolResult>;
}

export interface ShapedResult {
  content: ToolResultPart[];
  isError: boolean;
  /** The model got a shortened result (output budget). */
  cut?: boolean;
  /** Size of the full result before any budget, in bytes. */
  resultBytes?: number;
  /** The raw result's texts kept out of memory (it carries a stand-in for each; see connections/spilled-text.ts). */
  spilledTexts?: readonly SpilledText[];
  /** The output budget the result was held to, in estimated tokens. */
  maxTokens?: number;
  /** For each part of `content`, the index of the raw result's block it stands for (see `MappedToolResult`). */
  contentSources?: readonly (number | undefined)[];
}

/** A tool the host itself provides (e.g. reading a stored result); it has no MCP server. */
export type HostToolHandler = (
  args: Record<string, unknown>,
  context: ToolCallContext,
) => Promise<ShapedResult> | ShapedResult;

export interface CallRecord {
  shaped: ShapedResult;
  /** What went wrong, for error outcomes. */
  error?: string;
  call: ToolCallPart;
  context: ToolCallContext;
  entry?: CatalogEntry;
  arguments?: Record<string, unknown>;
  outcome: CallOutcome;
  result: ToolResult;
  startedAt: Date;
  durationMs: number;
  /** The policy's decision, when the call got that far. */
  authorization?: Authorization;
}

export interface ToolCallDependencies {
  catalog: () => ToolCatalog;
  /** Why a name the catalog does not offer is missing, when known (e.g. withheld until the user approves it). */
  describeMissing?: (name: string) => string | undefined;
  server: (name: string) => CallableServer | undefined;
  callOptions: (entry: CatalogEntry, context: ToolCallContext) => Omit<CallToolOptions, 'signal' | 'safeToRetry'>;
  hostTools?: ReadonlyMap<string, HostToolHandler>;
  /**
   * Checks a server tool's arguments against its input schema; returns the error text for the model when they do
   * not fit (the call is then neither asked about nor sent), undefined when they do. Host tools check their own.
   * A promise only while the validator itself is still loading (the first call); synchronous after that.
   */
  validateArguments?: (
    entry: CatalogEntry,
    args: Record<string, unknown>,
  ) => string | undefined | Promise<string | undefined>;
  /**
   * Right before a server's tool is authorized and again before it is sent: why it must not run, when the server's
   * tools changed since the catalog of this turn was built (a rug pull), or undefined when it may.
   */
  confirmCurrent?: (entry: CatalogEntry, signal: AbortSignal) => string | undefined | Promise<string | undefined>;
  /**
   * Policy and consent. Its `decision.safeToRetry` also says whether the call may be sent once more after a
   * timeout, a crashed server or an expired HTTP session (a trusted server's idempotent or read-only tool).
   */
  authorize: (
    entry: CatalogEntry,
    args: Record<string, unknown>,
    context: ToolCallContext,
    call: ToolCallPart,
  ) => Promise<Authorization>;
  /** MCP result → what the model sees (content mapping, output budget). */
  shapeResult: (raw: CallToolResult, entry: CatalogEntry, context: ToolCallContext, call: ToolCallPart) => ShapedResult;
  /**
   * Whether a server's exit, reported as it happens, reaches whoever reads the warnings (the host's `onDiagnostic`):
   * a warning about a call the exit ended then does not say it again. Otherwise the warning says it itself.
   */
  serverExitsShown?: boolean;
  /** Called once per call, before its result goes back (awaited: the record is written first). */
  record?: (record: CallRecord) => void | Promise<void>;
  /**
   * The server refused the call with -32042 (URL elicitation required): ask the user to open each URL. On
   * `accept` for all of them the call is sent once more; otherwise the model is told the user declined.
   */
  askToOpenRequiredUrl?: (
    entry: CatalogEntry,
    url: RequiredUrlElicitation,
    context: ToolCallContext,
  ) => Promise<'accept' | 'decline' | 'cancel'>;
}

/** What a call's end knows besides its result, as far as the call got. */
interface DoneExtra {
  entry?: CatalogEntry;
  arguments?: Record<string, unknown>;
  authorization?: Authorization;
  rawResult?: unknown;
  serverExit?: ServerExit;
}

const NO_EXTRA: DoneExtra = {};

export function createToolCallExecutor(dependencies: ToolCallDependencies) {
  return async function executeToolCall(call: ToolCallPart, context: ToolCallContext): Promise<ExecutedToolCall> {
    const startedAt = Date.now();
    const started = performance.now();
    // The audit's time span is the tool's own, from when it was first sent: not the routing, checks and the wait
    // for the user's approval before it (the `tool-call-end` event's duration, taken by the loop, has those).
    let sentAt: number | undefined;
    let sentStarted = 0;
    const markSent = () => {
      if (sentAt !== undefined) return;
      sentAt = Date.now();
      sentStarted = performance.now();
    };
    // Objects below are built key by key, not from spreads and rests: on Node 20 those cost microseconds a call.
    const done = async (
      outcome: CallOutcome,
      shaped: ShapedResult,
      extra: DoneExtra = NO_EXTRA,
    ): Promise<ExecutedToolCall> => {
      const result: ToolResult = {
        callId: call.id,
        toolName: call.name,
        content: shaped.content,
        isError: shaped.isError,
      };
      if (dependencies.record !== undefined) {
        const record: CallRecord = {
          call,
          context,
          outcome,
          result,
          shaped,
          startedAt: new Date(sentAt ?? startedAt),
          durationMs: Math.round(performance.now() - (sentAt === undefined ? started : sentStarted)),
        };
        if (outcome !== 'ok' && shaped.isError) record.error = textOf(shaped);
        if (extra.entry !== undefined) record.entry = extra.entry;
        if (extra.arguments !== undefined) record.arguments = extra.arguments;
        if (extra.authorization !== undefined) record.authorization = extra.authorization;
        await dependencies.record(record);
      }
      const executed: ExecutedToolCall = { result, outcome, server: extra.entry?.server, rawResult: extra.rawResult };
      if (shaped.spilledTexts !== undefined) executed.spilledTexts = shaped.spilledTexts;
      if (shaped.maxTokens !== undefined) executed.maxResultTokens = shaped.maxTokens;
      if (shaped.contentSources !== undefined) executed.contentSources = shaped.contentSources;
      if (extra.serverExit !== undefined) executed.serverExit = extra.serverExit;
      return executed;
    };
    const errorText = (text: string): ShapedResult => ({ content: [{ type: 'text', text }], isError: true });

    const parsed = parseToolArguments(call.argumentsText);
    const entry = dependencies.catalog().resolve(call.name);
    if (!entry) {
      const why = dependencies.describeMissing?.(call.name);
      if (why !== undefined) return done('invalid', errorText(`Unknown tool "${call.name}": ${why}`));
      const close = dependencies.catalog().suggest(call.name);
      const unknown = unknownToolText(call.name, close);
      return done('invalid', errorText(close.length > 0 ? unknown : `${unknown} Use one of the tools offered.`));
    }
    if (!parsed.ok) return done('invalid', errorText(parsed.error), { entry });
    const args = parsed.value;
    if (!dependencies.hostTools?.has(entry.name)) {
      let invalid = dependencies.validateArguments?.(entry, args);
      if (invalid instanceof Promise) invalid = await invalid;
      if (invalid !== undefined) return done('invalid', errorText(invalid), { entry, arguments: args });
    }
    const hostTool = dependencies.hostTools?.get(entry.name);
    // Host tools run no server code, so a server's changed listing cannot change them. Awaited only when it is a
    // promise (it waits for a listing): the common answer costs no turn of the event loop.
    const refusedAsChanged = (): string | undefined | Promise<string | undefined> =>
      hostTool ? undefined : dependencies.confirmCurrent?.(entry, context.signal);

    let changedBefore = refusedAsChanged();
    if (changedBefore instanceof Promise) changedBefore = await changedBefore;
    if (changedBefore !== undefined) {
      return done('denied', errorText(changedBefore), { entry, arguments: args });
    }

    const authorization = await dependencies.authorize(entry, args, context, call);
    const safeToRetry = authorization.decision.safeToRetry;
    for (const warning of authorization.warnings) {
      context.emit({ type: 'tool-call-warning', callId: call.id, message: warning });
    }
    if (!authorization.allowed) {
      return done(
        context.signal.aborted ? 'cancelled' : 'denied',
        errorText(authorization.denialMessage ?? 'User denied this call.'),
        { entry, arguments: args, authorization },
      );
    }

    // Asking the user may take a while: the server may have changed the tool meanwhile.
    let changedAfter = refusedAsChanged();
    if (changedAfter instanceof Promise) changedAfter = await changedAfter;
    if (changedAfter !== undefined) {
      return done('denied', errorText(changedAfter), { entry, arguments: args, authorization });
    }

    if (hostTool) {
      try {
        markSent();
        const shaped = await hostTool(args, context);
        return done(shaped.isError ? 'error' : 'ok', shaped, { entry, arguments: args, authorization });
      } catch (error) {
        return done('error', errorText(error instanceof Error ? error.message : String(error)), {
          entry,
          arguments: args,
        });
      }
    }

    const server = dependencies.server(entry.server);
    if (!server) {
      return done('error', errorText(`The server "${entry.server}" for this tool is not connected.`), {
        entry,
        arguments: args,
      });
    }
    context.emit({
      type: 'tool-call-request',
      callId: call.id,
      server: entry.server,
      tool: entry.tool.name,
      arguments: args,
    });
    const callServer = () => {
      markSent();
      // The spread comes last: on Node 20 keys added after a leading spread cost microseconds each.
      return server.callTool(entry.tool.name, args, {
        safeToRetry,
        signal: context.signal,
        ...dependencies.callOptions(entry, context),
      });
    };
    const fail = (failure: CallFailure) =>
      done(outcomeOf(failure), errorText(`The tool call failed: ${failure.message}`), {
        entry,
        arguments: args,
        authorization,
        serverExit: failure.serverExit,
      });
    let raw: CallToolResult;
    try {
      raw = await callServer();
    } catch (error) {
      const failure = asCallFailure(error, entry.server);
      if (failure.urlElicitations !== undefined && dependencies.askToOpenRequiredUrl !== undefined) {
        const answer = await askForUrls(failure.urlElicitations, dependencies.askToOpenRequiredUrl, entry, context);
        if (answer !== 'accept') {
          return done(
            answer === 'cancel' && context.signal.aborted ? 'cancelled' : 'denied',
            errorText(urlNotOpenedText(call.name, entry.server, failure.urlElicitations, answer)),
            { entry, arguments: args, authorization },
          );
        }
        context.emit({
          type: 'tool-call-warning',
          callId: call.id,
          message: `${call.name}: the user opened the URL the server asked for; sending the call again`,
        });
        try {
          raw = await callServer();
        } catch (retryError) {
          return fail(asCallFailure(retryError, entry.server));
        }
        return finish(raw);
      }
      // Only a call safe to retry is sent again, once; anything else could do its work twice.
      const retry =
        (failure.kind === 'timeout' || failure.kind === 'crashed') && !context.signal.aborted && safeToRetry;
      if (!retry) return fail(failure);
      // How the server went away was reported as it happened (`serverExit`) to whoever reads this warning: it does
      // not say it again. A library user with no `onDiagnostic` heard no report, so the warning says it.
      const shown = failure.serverExit !== undefined && dependencies.serverExitsShown === true;
      const why = shown ? '' : ` (${failure.message})`;
      context.emit({
        type: 'tool-call-warning',
        callId: call.id,
        message: `${call.name} ${failure.kind === 'timeout' ? 'timed out' : 'lost its server'}; trying once more, as the tool is marked safe to retry${why}`,
      });
      try {
        raw = await callServer();
      } catch (retryError) {
        return fail(asCallFailure(retryError, entry.server));
      }
    }
    return finish(raw);

    function finish(raw: CallToolResult) {
      // Nothing after this point could walk it without overflowing the stack: the call fails, the run goes on.
      if (exceedsJsonDepth(raw)) {
        return done(
          'error',
          errorText(`The tool call failed: ${describeTooDeep('the tool result')}, so it was not passed on.`),
          { entry, arguments: args, authorization },
        );
      }
      const shaped = dependencies.shapeResult(raw, entry as CatalogEntry, context, call);
      return done(shaped.isError ? 'error' : 'ok', shaped, { entry, arguments: args, authorization, rawResult: raw });
    }
  };
}

/** Asks about each URL in turn; the first answer that is not `accept` ends the asking. */
async function askForUrls(
  urls: readonly RequiredUrlElicitation[],
  ask: NonNullable<ToolCallDependencies['askToOpenRequiredUrl']>,
  entry: CatalogEntry,
  context: ToolCallContext,
): Promise<'accept' | 'decline' | 'cancel'> {
  for (const url of urls) {
    const answer = await ask(entry, url, context).catch(() => 'cancel' as const);
    if (answer !== 'accept') return answer;
  }
  return 'accept';
}

/** What the model is told when the user did not open what the server needed: clear enough not to retry blindly. */
function urlNotOpenedText(
  toolName: string,
  server: string,
  urls: readonly RequiredUrlElicitation[],
  answer: 'decline' | 'cancel',
): string {
  const domains = [...new Set(urls.map((url) => domainOf(url.url)))].join(', ');
  const what = answer === 'decline' ? 'declined' : 'cancelled';
  return `The tool ${toolName} was not run: server "${server}" needs the user to open a page at ${domains} first (URL elicitation required), and the user ${what}. Do not call it again unless the user asks you to; tell them what the tool needed.`;
}

function domainOf(url: string): string {
  try {
    return new URL(url).hostname || 'an unknown address';
  } catch {
    return 'an address that is not a valid URL';
  }
}

function asCallFailure(error: unknown, server: string): CallFailure {
  return error instanceof CallFailure
    ? error
    : new CallFailure('protocol', error instanceof Error ? error.message : String(error), server);
}

function outcomeOf(failure: CallFailure): CallOutcome {
  if (failure.kind === 'timeout') return 'timeout';
  if (failure.kind === 'cancelled') return 'cancelled';
  if (failure.kind === 'crashed' || failure.kind === 'disconnected') return 'crashed';
  return 'error';
}

function textOf(shaped: ShapedResult): string {
  return shaped.content.map((part) => (part.type === 'text' ? part.text : `[${part.mimeType}]`)).join('\n');
}
