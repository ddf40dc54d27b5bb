/**
 * One MCP server as the host sees it: how to reach it, its state, and the calls it serves.
 *
 * This is the seam between the host and the MCP client SDK. Everything above speaks
 * `ServerConnection`; only this folder knows transports, process groups and SDK error codes.
 * It restarts a crashed server (bounded, with backoff), re-initialises an expired HTTP session,
 * and refreshes its tool list on `list_changed` at most twice per burst. Every text it builds from what the server
 * said (stderr tails, error bodies, exit notes, diagnostics) has the known secrets redacted before anyone sees it.
 */
import type {
  CallToolResult,
  Client,
  ClientCapabilities,
  LoggingLevel,
  Tool,
  Transport,
} from '@modelcontextprotocol/client';
import type { ServerConfig } from '../config/types.js';
import { jsonSchemaEnginesLoaded, loadJsonSchemaEngines } from '../json/json-schema-engines.js';
import { ownJsonCopy } from '../json/own-property.js';
import { redactSecrets } from '../text/redact-secrets.js';
import { CallFailure } from './call-failure.js';
import { callResultSchema } from './call-result-schema.js';
import { createTransport } from './create-transport.js';
import { isSessionExpired, toCallFailure } from './describe-call-error.js';
import { firstOfEachName } from './first-of-each-name.js';
import { withHardMaximum } from './hard-maximum.js';
import { HostWrittenAnswers } from './host-written-answers.js';
import { keepPrototypeKeysOfAnswers, namedBack } from './keep-prototype-keys.js';
import type { RemoteAuthorization } from './oauth/remote-authorization.js';
import { isPlainTextCallResult } from './plain-call-result.js';
import type { ProcessGroupStdioTransport } from './process-group-stdio-transport.js';
import { RenamedAnswers } from './renamed-answers.js';
import { restartDelay } from './restart-policy.js';
import { ServerErrorAnswers } from './server-error-answers.js';
import { type ServerExit, serverExit } from './server-exit.js';
import { SingleFlight } from './single-flight.js';
import type { OpenSpill } from './spilled-text.js';

/** How long `initialize` (spawn included) may take before the server is reported as failed, unless the server's
 * `startupTimeoutMs` says otherwise. */
const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;

/** Quiet time after the latest `list_changed` before the trailing re-listing of a burst. */
export const LIST_CHANGED_SETTLE_MS = 100;

export type ServerState = 'idle' | 'connecting' | 'connected' | 'restarting' | 'failed' | 'crashed' | 'closed';

export interface ServerStatus {
  name: string;
  state: ServerState;
  transport: ServerConfig['transport'];
  protocolVersion?: string;
  serverInfo?: { name: string; version: string };
  toolCount?: number;
  lastError?: string;
  stderrTail?: string;
  pid?: number;
  restarts?: number;
}

export interface CallToolOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  /** Hard maximum when progress notifications keep resetting the timeout. */
  maxTotalTimeoutMs?: number;
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
  /** The call may be sent again after an expired session (idempotent or read-only, from a trusted server). */
  safeToRetry?: boolean;
}

export interface ServerConnectionOptions {
  clientName?: string;
  clientVersion?: string;
  connectTimeoutMs?: number;
  onDiagnostic?: (server: string, message: string) => void;
  /** The server said its tools changed (after a restart too). */
  onToolsChanged?: (server: string) => void;
  /** The server process ended or the connection dropped without the host asking. */
  onExit?: (server: string, exit: ServerExit) => void;
  capabilities?: ClientCapabilities;
  configureClient?: (client: Client, config: ServerConfig) => void;
  transportFactory?: (config: ServerConfig) => Transport | undefined;
  /** OAuth for remote servers that ask for it (401); absent: no authorization is attempted. */
  authorization?: RemoteAuthorization;
  /** Where a stdio server's tool result text too long to hold in memory is written (see spilled-text.ts). */
  openSpill?: OpenSpill;
  /**
   * Values redacted from every text built from the server's output (`HostConfig.secrets`). Read at each use, so a
   * list that grows during the run (values the model sent under secret-named keys) is honoured.
   */
  secrets?: readonly string[];
}

export class ServerConnection {
  private client?: Client;
  private transport?: Transport;
  /** What the server answered the calls on the current transport with, to tell its errors from the library's. */
  private errorAnswers = new ServerErrorAnswers(new HostWrittenAnswers());
  /** Whether the answers on each client's transport held renamed keys (see keep-prototype-keys.ts). */
  private readonly renamedAnswers = new WeakMap<Client, RenamedAnswers>();
  private currentState: ServerState = 'idle';
  private lastError?: string;
  private tools?: Tool[];
  /** Names the latest listing gave an `outputSchema` (under any of its definitions): their calls go through the
   * SDK's `callTool`, which checks `structuredContent` against it. */
  private toolsWithOutputSchema?: ReadonlySet<string>;
  private restarts = 0;
  /**
   * Restarts since the server last answered a call: the backoff's attempt, so a server that crashes at every start
   * stops being restarted, while one that works between crashes (a long-running gateway's, days apart) is not left
   * failed by crashes counted over its whole life. Only a call's answer counts: starting and listing happen with no
   * one asking, so a server that crashes right after them would be restarted for ever.
   */
  private restartsSinceAnswer = 0;
  /**
   * The latest restart failed to start the server: the next waits out its backoff even when a call is waiting, or a
   * model trying its call again would use up the restarts within a second (a remote end down a few seconds).
   */
  private restartFailedToStart = false;
  private callsBeingMade = 0;
  private restarting?: Promise<boolean>;
  private restartTimer?: NodeJS.Timeout;
  private readonly reportedRepeats = new Set<string>();
  /** The exit `onExit` last reported, with the client it ended: calls that failed on that client failed of it. */
  private reportedExit?: { client: Client; exit: ServerExit };
  // What this client asked of the server's session; a new session (restart, re-initialised HTTP session) is asked
  // again.
  private readonly subscribedUris = new Set<string>();
  private loggingLevel?: LoggingLevel;
  /** The level the current session took, if it took one: what a new session was not yet asked is not counted. */
  private sessionLoggingLevel?: LoggingLevel;
  // A re-listing at once, then one more after a storm of `list_changed` has passed.
  private readonly toolRefresh = new SingleFlight(() => this.fetchTools(), {
    settleMs: LIST_CHANGED_SETTLE_MS,
    maxWaitMs: 1_000,
  });

  constructor(
    readonly config: ServerConfig,
    private readonly options: ServerConnectionOptions = {},
  ) {}

  get name(): string {
    return this.config.name;
  }

  get state(): ServerState {
    return this.currentState;
  }

  /** What the server said in `initialize` about using it (untrusted text, as the server sent it). */
  get instructions(): string | undefined {
    return this.client?.getInstructions();
  }

  status(): ServerStatus {
    const stdio = this.stdioTransport();
    return {
      name: this.name,
      state: this.currentState,
      transport: this.config.transport,
      protocolVersion: this.client?.getNegotiatedProtocolVersion(),
      serverInfo: this.client?.getServerVersion(),
      toolCount: this.tools?.length,
      lastError: this.lastError === undefined ? undefined : this.redact(this.lastError),
      stderrTail: this.redact(stdio?.stderr.tail() ?? '') || undefined,
      pid: stdio?.pid,
      restarts: this.restarts || undefined,
    };
  }

  /** Connects and initialises. Never throws: a failure is recorded in `status()`. */
  async connect(): Promise<boolean> {
    this.currentState = 'connecting';
    try {
      const hostWritten = new HostWrittenAnswers();
      const renamed = new RenamedAnswers();
      const { client, transport } = await createTransport(this.config, {
        connectTimeoutMs: this.config.startupTimeoutMs ?? this.options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
        clientInfo: { name: this.options.clientName ?? 'mcp-host', version: this.options.clientVersion ?? '0.0.0' },
        onDiagnostic: (message) => this.options.onDiagnostic?.(this.name, this.redact(message)),
        onToolsChanged: () => this.options.onToolsChanged?.(this.name),
        capabilities: this.options.capabilities,
        configureClient: this.options.configureClient,
        transportFactory: this.options.transportFactory,
        authorization: this.options.authorization,
        openSpill: this.options.openSpill,
        hostWritten,
        renamed,
        secrets: this.options.secrets,
      });
      if ((this.currentState as ServerState) === 'closed') {
        await transport.close().catch(() => undefined);
        return false;
      }
      this.client = client;
      this.transport = transport;
      this.errorAnswers = new ServerErrorAnswers(hostWritten);
      keepPrototypeKeysOfAnswers(transport, renamed, this.errorAnswers);
      this.renamedAnswers.set(client, renamed);
      client.onclose = () => this.handleUnexpectedClose(client);
      this.currentState = 'connected';
      this.lastError = undefined;
      await this.askAgain(client);
      return true;
    } catch (error) {
      if ((this.currentState as ServerState) !== 'closed') this.currentState = 'failed';
      this.lastError = this.redact(error instanceof Error ? error.message : String(error));
      return false;
    }
  }

  /** `resources/subscribe` or `resources/unsubscribe`, remembered so that a new session is subscribed again. */
  async subscribeResource(uri: string, subscribe: boolean): Promise<void> {
    // Forgotten first: a server that cannot be told now (it is down) is not subscribed again when it restarts.
    if (!subscribe) this.subscribedUris.delete(uri);
    const client = await this.readyClient();
    if (subscribe) {
      await client.subscribeResource({ uri });
      this.subscribedUris.add(uri);
    } else {
      await client.unsubscribeResource({ uri });
    }
  }

  /** `logging/setLevel`, remembered so that a new session logs from the same level. */
  async setLoggingLevel(level: LoggingLevel): Promise<void> {
    const client = await this.readyClient();
    await client.setLoggingLevel(level);
    this.loggingLevel = level;
    if (client === this.client) this.sessionLoggingLevel = level;
  }

  /**
   * The level a server with no session now (starting, restarting, down) is to log from: asked of its next session
   * once it connects, as a restarted server's session is asked the level the one before had.
   */
  setLoggingLevelWhenConnected(level: LoggingLevel): void {
    this.loggingLevel = level;
  }

  /** Tells the user something about this server, as its own diagnostics are told: with the known secrets redacted. */
  diagnose(message: string): void {
    this.options.onDiagnostic?.(this.name, this.redact(message));
  }

  /** Whether the server has a session now, which a request can be sent to without waiting for a start. */
  get hasSession(): boolean {
    return this.client !== undefined && this.currentState === 'connected';
  }

  /** The log level the server's current session was asked for and took, if any. */
  get loggingLevelTaken(): LoggingLevel | undefined {
    return this.sessionLoggingLevel;
  }

  /** Takes over what a previous connection to the same server asked (a restart creates a new connection). */
  carryOver(previous: ServerConnection): void {
    for (const uri of previous.subscribedUris) this.subscribedUris.add(uri);
    this.loggingLevel = previous.loggingLevel;
  }

  private async askAgain(client: Client): Promise<void> {
    const failed = (what: string) => (error: unknown) =>
      this.options.onDiagnostic?.(
        this.name,
        this.redact(
          `${what} again after reconnecting failed: ${error instanceof Error ? error.message : String(error)}`,
        ),
      );
    this.sessionLoggingLevel = undefined;
    const level = this.loggingLevel;
    // One kept while the server had no session is not asked of a server that does not log.
    if (level !== undefined && client.getServerCapabilities()?.logging !== undefined) {
      try {
        await client.setLoggingLevel(level);
        if (client === this.client) this.sessionLoggingLevel = level;
      } catch (error) {
        failed(`setting the log level "${level}"`)(error);
      }
    }
    for (const uri of this.subscribedUris) {
      await client.subscribeResource({ uri }).catch(failed(`subscribing to ${uri}`));
    }
  }

  /** Every page of `tools/list`, cached until the server says its tools changed. */
  async listTools(): Promise<Tool[]> {
    if (this.tools) return this.tools;
    return this.toolRefresh.run();
  }

  /** Re-lists after `list_changed`: one listing in flight, plus at most one trailing. */
  refreshTools(): Promise<Tool[]> {
    return this.toolRefresh.run();
  }

  private async fetchTools(): Promise<Tool[]> {
    const client = await this.readyClient();
    // Asked anyway, the client library prints a notice on stdout, which may be a protocol channel (`serve --stdio`).
    if (!client.getServerCapabilities()?.tools) return [];
    // Renamed on the way in (see keep-prototype-keys.ts): a `__proto__` key of a definition, which the library would
    // drop or make a prototype of, is a data key again, as the server sent it.
    const result = namedBack(await client.listTools());
    // A copy of the host's own, not shared with the library's cached listing.
    const { tools, repeated } = firstOfEachName(result.tools.map((tool) => ownJsonCopy(tool) as Tool));
    this.toolsWithOutputSchema = new Set(
      result.tools.filter((tool) => tool.outputSchema !== undefined).map((tool) => tool.name),
    );
    // Once per name for the life of the connection: every re-listing would otherwise say it again.
    const fresh = repeated.filter((name) => !this.reportedRepeats.has(name));
    if (fresh.length > 0) {
      for (const name of fresh) this.reportedRepeats.add(name);
      const names = fresh.map((name) => JSON.stringify(name.slice(0, 100))).join(', ');
      this.options.onDiagnostic?.(
        this.name,
        `lists the tool${fresh.length === 1 ? '' : 's'} ${names} more than once; the first definition is used`,
      );
    }
    this.tools = tools;
    return tools;
  }

  /** Calls made and not yet ended: a server may have as many of its questions waiting (see waiting-questions.ts). */
  get callsInFlight(): number {
    return this.callsBeingMade;
  }

  callTool(name: string, args: Record<string, unknown>, options: CallToolOptions): Promise<CallToolResult> {
    this.callsBeingMade += 1;
    const made = this.makeCall(name, args, options);
    made.then(this.callEnded, this.callEnded);
    return made;
  }

  private readonly callEnded = (): void => {
    this.callsBeingMade -= 1;
  };

  private async makeCall(
    name: string,
    args: Record<string, unknown>,
    options: CallToolOptions,
  ): Promise<CallToolResult> {
    let client = await this.readyClient();
    // Its structuredContent is checked as the call starts, with an engine loaded once (see output-schema-validator.ts).
    if (!jsonSchemaEnginesLoaded() && this.toolsWithOutputSchema?.has(name) === true) await loadJsonSchemaEngines();
    const send = (target: Client) =>
      withHardMaximum(options.maxTotalTimeoutMs, options.signal, (signal, progressed) => {
        const onProgress = options.onProgress;
        const requestOptions = {
          timeout: options.timeoutMs,
          signal,
          resetTimeoutOnProgress: true,
          onprogress: (progress: Parameters<NonNullable<CallToolOptions['onProgress']>>[0]) => {
            progressed();
            onProgress?.(progress);
          },
        };
        // Frozen because the library copies them to add its request id and progress token: on Node 20 keys added to
        // a copy of a plain object cost microseconds each, to a copy of a frozen one a fraction of that (none is
        // changed).
        const params = Object.freeze({ name, arguments: args });
        const renamed = this.renamedAnswers.get(target);
        const mark = renamed?.mark() ?? 0;
        const schema = this.needsOnlyResultCheck(target, name) ? callResultSchema(target) : undefined;
        const answer =
          schema === undefined
            ? target.callTool(params, requestOptions)
            : target.request(Object.freeze({ method: 'tools/call', params }), schema, requestOptions);
        // Named back only when an answer with renamed keys arrived during the call (rare): walking a large answer
        // for keys it does not hold cost a share of the call.
        return answer.then((result) =>
          (renamed !== undefined && !renamed.since(mark)) || isPlainTextCallResult(result) ? result : namedBack(result),
        );
      });
    try {
      const result = await send(client);
      this.restartsSinceAnswer = 0;
      return result;
    } catch (error) {
      if (!isSessionExpired(error) || options.signal?.aborted) throw this.toFailure(error, options, client);
      // The server forgot our session (restarted, expired): a new one, and the call again only if safe.
      if (!(await this.reconnect('the HTTP session expired (404)'))) throw this.toFailure(error, options, client);
      if (!options.safeToRetry) {
        throw new CallFailure(
          'disconnected',
          `the server's HTTP session expired (404); a new session was started, but the call was not repeated because the tool is not marked idempotent or read-only by a trusted server`,
          this.name,
          { cause: error },
        );
      }
      client = await this.readyClient();
      try {
        const result = await send(client);
        this.restartsSinceAnswer = 0;
        return result;
      } catch (retryError) {
        if (isSessionExpired(retryError)) {
          throw new CallFailure(
            'disconnected',
            'the HTTP session expired again (second 404) right after re-initialising',
            this.name,
            {
              cause: retryError,
            },
          );
        }
        throw this.toFailure(retryError, options, client);
      }
    }
  }

  /**
   * Whether checking the result against the `tools/call` schema is all `Client.callTool` would do for this call: the
   * tool was listed without an `outputSchema` and the legacy protocol era sends no `Mcp-Param-*` headers.
   */
  private needsOnlyResultCheck(client: Client, name: string): boolean {
    return this.toolsWithOutputSchema?.has(name) === false && client.getProtocolEra() === 'legacy';
  }

  async close(): Promise<void> {
    const client = this.client;
    this.currentState = 'closed';
    clearTimeout(this.restartTimer);
    this.client = undefined;
    if (client) client.onclose = undefined;
    await client?.close().catch(() => undefined);
    await this.transport?.close().catch(() => undefined);
  }

  /** The live SDK client, for the host's other MCP features (resources, prompts). */
  get sdkClient(): Client | undefined {
    return this.client;
  }

  /** A connected client, waiting for a restart in progress (or starting one a call needs now). */
  private async readyClient(): Promise<Client> {
    if (this.currentState === 'crashed' && this.restartTimer && !this.restartFailedToStart) {
      // A call is waiting: restart a crashed server now instead of at the end of the backoff.
      clearTimeout(this.restartTimer);
      this.restartTimer = undefined;
      this.restarting ??= this.restart();
    }
    if (this.restarting) await this.restarting;
    if (!this.client || this.currentState !== 'connected') {
      const why = this.lastError ? `: ${this.lastError}` : '';
      throw new CallFailure(
        'not-connected',
        `server "${this.name}" is not connected (${this.currentState})${why}`,
        this.name,
      );
    }
    return this.client;
  }

  private handleUnexpectedClose(client: Client): void {
    if (this.currentState === 'closed' || client !== this.client) return;
    this.currentState = 'crashed';
    const exit = this.serverExit();
    this.lastError = exit.description;
    this.reportedExit = { client, exit };
    this.options.onExit?.(this.name, exit);
    this.restartLater();
  }

  /** The next restart after the backoff, or none when the server went down too many times in a row. */
  private restartLater(): void {
    const delay = restartDelay(this.restartsSinceAnswer);
    if (delay === undefined) {
      this.currentState = 'failed';
      this.lastError = `${this.lastError}\n(not restarted: it went down ${this.restartsSinceAnswer + 1} times in a row without answering a call)`;
      return;
    }
    this.currentState = 'crashed';
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      this.restarting ??= this.restart();
    }, delay);
    this.restartTimer.unref();
  }

  private async restart(): Promise<boolean> {
    this.restarts += 1;
    this.restartsSinceAnswer += 1;
    const ok = await this.reconnect(`restart ${this.restarts} after a crash`);
    this.restarting = undefined;
    this.restartFailedToStart = !ok;
    // A restart that failed to start the server (its remote end still down, a start-up that timed out) is tried
    // again as after a crash, within the same bound.
    if (!ok && this.currentState === 'failed') this.restartLater();
    return ok;
  }

  private async reconnect(why: string): Promise<boolean> {
    const previous = { client: this.client, transport: this.transport };
    if (previous.client) previous.client.onclose = undefined;
    this.client = undefined;
    await previous.client?.close().catch(() => undefined);
    await previous.transport?.close().catch(() => undefined);
    if (this.currentState === 'closed') return false;
    this.currentState = 'restarting';
    const lastFailure = this.lastError;
    const ok = await this.connect();
    if (ok) {
      this.options.onDiagnostic?.(this.name, `reconnected (${why})`);
      this.tools = undefined;
      this.toolsWithOutputSchema = undefined;
      // Its tools may differ after a restart; the host re-lists between turns.
      this.options.onToolsChanged?.(this.name);
      this.lastError = lastFailure ? `recovered; before that: ${lastFailure}` : undefined;
    }
    return ok;
  }

  private stdioTransport(): ProcessGroupStdioTransport | undefined {
    return this.config.transport === 'stdio' && !this.options.transportFactory
      ? (this.transport as ProcessGroupStdioTransport | undefined)
      : undefined;
  }

  private serverExit(): ServerExit {
    const stdio = this.stdioTransport();
    const exit = stdio?.exit;
    const stderrTail = stdio?.stderr.tail(10);
    const closeReason = stdio?.closeReason;
    return serverExit({
      server: this.name,
      ...(exit === undefined ? {} : { exit }),
      ...(stderrTail ? { stderrTail } : {}),
      ...(closeReason === undefined ? {} : { closeReason }),
      outputClosedWhileRunning: stdio?.endedOnItsOwn?.outputClosedWhileRunning === true,
      redact: (text) => this.redact(text),
    });
  }

  private redact(text: string): string {
    return redactSecrets(text, this.options.secrets ?? []);
  }

  /** What a call sent on `client` failed of, in words for the model. */
  private toFailure(error: unknown, options: CallToolOptions, client: Client): CallFailure {
    const reported = this.reportedExit?.client === client ? this.reportedExit.exit : undefined;
    const failure = toCallFailure(error, {
      server: this.name,
      aborted: options.signal?.aborted ?? false,
      timeoutMs: options.timeoutMs,
      maxTotalTimeoutMs: options.maxTotalTimeoutMs,
      remote: this.config.transport !== 'stdio',
      // The very exit reported, not one described afresh: what the call says is what the report said.
      exitOf: () => (reported ? { exit: reported, reported: true } : { exit: this.serverExit(), reported: false }),
      answeredBy: (error) => this.errorAnswers.take(error),
    });
    const message = this.redact(failure.message);
    if (message === failure.message) return failure;
    // No `serverExit`: said otherwise than the exit was reported, the report no longer stands for it.
    const { cause, urlElicitations } = failure;
    return new CallFailure(failure.kind, message, failure.server, {
      cause,
      ...(urlElicitations === undefined ? {} : { urlElicitations }),
    });
  }
}
