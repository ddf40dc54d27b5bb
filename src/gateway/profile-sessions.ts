/**
 * The downstream sessions of one profile, and what passes between them and the profile's servers apart from calls:
 * servers' log messages (to every session, at the level each asked for; to a stateless one on its call's stream),
 * `resources`/`prompts` list changes (debounced), and servers' sampling and elicitation requests — answered by the
 * client whose call to that server is in progress (the newest one), or by the only client when there is one; refused
 * with the reason otherwise, and when that client did not declare the capability.
 */
import {
  type ClientCapabilities,
  type CreateMessageRequest,
  type CreateMessageResult,
  type CreateMessageResultWithTools,
  type ElicitRequest,
  type ElicitRequestFormParams,
  type ElicitRequestURLParams,
  type ElicitResult,
  type LoggingLevel,
  type LoggingMessageNotification,
  ProtocolError,
  ProtocolErrorCode,
  type RequestOptions,
  type Server,
  type ServerEventBus,
} from '@modelcontextprotocol/server';
import type { ClientRequestForwarder } from '../client-features/forward-client-requests.js';
import type { ServerLogEntry } from '../client-features/server-log.js';
import { KeyedThrottle } from './keyed-throttle.js';

/** Most verbose first, as the MCP specification orders them. */
const LEVELS: readonly LoggingLevel[] = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
];

export interface DownstreamSession {
  server: Server;
  /** Set by the client's `logging/setLevel`; until then every message is passed on. */
  logLevel?: LoggingLevel;
  /**
   * Set for the server answering one request of a stateless HTTP session, which has no standing stream: a server's
   * log message reaches it only on the stream of its own call to that server. `client` is the session's id, which
   * tells its calls from other clients'.
   */
  callStreamsOnly?: { client: string };
}

type LogMessage = LoggingMessageNotification['params'];

/** How to reach a client with a request: inside its call in progress, or on its own. */
interface Asker {
  session: DownstreamSession;
  sampling(
    params: CreateMessageRequest['params'],
    options: RequestOptions,
  ): Promise<CreateMessageResult | CreateMessageResultWithTools>;
  elicit(params: ElicitRequestFormParams | ElicitRequestURLParams, options: RequestOptions): Promise<ElicitResult>;
  /** Sends a log message on the call's own stream. */
  log(params: LogMessage): void;
}

/** URL elicitations forwarded and not yet said to be complete, kept at most; the oldest is let go past it. */
const MAX_OPEN_URL_ELICITATIONS = 1_000;

/** A URL elicitation by the server that opened it and the id it chose: two servers may choose the same id. */
function urlElicitationKey(server: string, elicitationId: string): string {
  return JSON.stringify([server, elicitationId]);
}

function clientName(session: DownstreamSession): string {
  return `"${session.server.getClientVersion()?.name ?? 'unknown'}"`;
}

function refuse(message: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidRequest, message);
}

export class ProfileSessions implements ClientRequestForwarder {
  readonly kind = 'gateway-client';
  private readonly sessions = new Set<DownstreamSession>();
  /** Per server, the calls in progress with the asker of each, newest last. */
  private readonly calls = new Map<string, Asker[]>();
  /** The session each open URL elicitation was forwarded to, by `urlElicitationKey`, oldest first. */
  private readonly urlElicitations = new Map<string, DownstreamSession>();
  private readonly listChanged = new KeyedThrottle((kind: 'resources' | 'prompts') => {
    for (const session of this.sessions) {
      const sent =
        kind === 'resources' ? session.server.sendResourceListChanged() : session.server.sendPromptListChanged();
      void sent.catch(() => undefined);
    }
    this.events?.publish({ kind: kind === 'resources' ? 'resources_list_changed' : 'prompts_list_changed' });
  });

  /**
   * @param timeoutMs how long a forwarded request may wait for the client (its user may be answering).
   * @param events where the profile's `subscriptions/listen` streams (2026-07-28 revision) hear of changes.
   */
  constructor(
    private readonly timeoutMs: number,
    private readonly events?: ServerEventBus,
  ) {}

  add(session: DownstreamSession): void {
    this.sessions.add(session);
  }

  remove(session: DownstreamSession): void {
    this.sessions.delete(session);
    for (const [key, asked] of this.urlElicitations) if (asked === session) this.urlElicitations.delete(key);
  }

  /** A call of `session` to `server` began; the returned function says it ended. */
  callStarted(server: string, session: DownstreamSession, ask: Pick<Asker, 'sampling' | 'elicit' | 'log'>): () => void {
    const asker: Asker = { session, ...ask };
    const stack = this.calls.get(server) ?? [];
    stack.push(asker);
    this.calls.set(server, stack);
    return () => {
      const at = stack.indexOf(asker);
      if (at >= 0) stack.splice(at, 1);
      if (stack.length === 0) this.calls.delete(server);
    };
  }

  /**
   * Records the level a client asked for and answers the level the servers should now use: the most verbose any
   * client of the profile asked for.
   */
  setLevel(session: DownstreamSession, level: LoggingLevel): LoggingLevel {
    session.logLevel = level;
    let lowest = LEVELS.indexOf(level);
    for (const other of this.sessions) {
      if (other.logLevel !== undefined) lowest = Math.min(lowest, LEVELS.indexOf(other.logLevel));
    }
    return LEVELS[lowest]!;
  }

  /**
   * A server's log message (already redacted and rate-limited by the host), to every client that wants its level. A
   * session without a standing stream hears it on its call to that server, and only while no other client is calling
   * that server: nothing in the message tells which call it is about, and another client's must not be told.
   */
  log(entry: ServerLogEntry): void {
    const severity = LEVELS.indexOf(entry.level);
    const wants = (session: DownstreamSession) =>
      session.logLevel === undefined || severity >= LEVELS.indexOf(session.logLevel);
    const message: LogMessage = {
      level: entry.level,
      logger: entry.logger === undefined ? entry.server : `${entry.server}/${entry.logger}`,
      data: entry.data,
    };
    for (const session of this.sessions) {
      if (session.callStreamsOnly !== undefined || !wants(session)) continue;
      void session.server.sendLoggingMessage(message).catch(() => undefined);
    }
    const calls = this.calls.get(entry.server) ?? [];
    const callers = new Set(calls.map((asker) => asker.session.callStreamsOnly?.client ?? asker.session));
    if (callers.size !== 1) return;
    for (const asker of calls) {
      if (asker.session.callStreamsOnly !== undefined && wants(asker.session)) asker.log(message);
    }
  }

  changed(kind: 'resources' | 'prompts'): void {
    this.listChanged.changed(kind, kind);
  }

  close(): void {
    this.listChanged.close();
  }

  private askerFor(server: string, what: string): Asker {
    const stack = this.calls.get(server);
    const inCall = stack?.[stack.length - 1];
    if (inCall !== undefined) return inCall;
    if (this.sessions.size === 1) {
      const [session] = this.sessions as unknown as [DownstreamSession];
      return {
        session,
        sampling: (params, options) => session.server.createMessage(params, options),
        elicit: (params, options) => session.server.elicitInput(params, options),
        log: (params) => void session.server.sendLoggingMessage(params).catch(() => undefined),
      };
    }
    throw refuse(
      `server "${server}" asked for ${what} outside a call and this gateway has ${this.sessions.size} clients: it cannot tell whom to ask`,
    );
  }

  private capabilities(asker: Asker): ClientCapabilities {
    return asker.session.server.getClientCapabilities() ?? {};
  }

  async sampling(
    serverName: string,
    params: CreateMessageRequest['params'],
    signal: AbortSignal,
  ): Promise<CreateMessageResult | CreateMessageResultWithTools> {
    const asker = this.askerFor(serverName, 'sampling');
    const sampling = this.capabilities(asker).sampling;
    if (sampling === undefined) {
      throw refuse(
        `server "${serverName}" asked for sampling, and the client of this gateway (${clientName(asker.session)}) does not support sampling`,
      );
    }
    if ((params.tools !== undefined || params.toolChoice !== undefined) && sampling.tools === undefined) {
      throw refuse(
        `server "${serverName}" asked for sampling with tools, and the client of this gateway (${clientName(asker.session)}) does not support tools in sampling (capability sampling.tools)`,
      );
    }
    return asker.sampling(params, { signal, timeout: this.timeoutMs });
  }

  async elicitation(serverName: string, params: ElicitRequest['params'], signal: AbortSignal): Promise<ElicitResult> {
    const asker = this.askerFor(serverName, 'elicitation');
    const elicitation = this.capabilities(asker).elicitation;
    const mode = params.mode === 'url' ? 'url' : 'form';
    // An empty `elicitation: {}` is the form mode of the 2025-06-18 revision.
    const supported =
      elicitation !== undefined &&
      (mode === 'url'
        ? elicitation.url !== undefined
        : elicitation.form !== undefined || elicitation.url === undefined);
    if (!supported) {
      throw refuse(
        `server "${serverName}" asked for ${mode} elicitation, and the client of this gateway (${clientName(asker.session)}) does not support ${mode} elicitation`,
      );
    }
    // The client sees every request as the gateway's: without the server's name, a server's form could pass for the
    // gateway's own approval question (and a user's answer to it for an approval it is not).
    const named = { ...params, message: `Server "${serverName}" asks: ${params.message}` };
    const key = params.mode === 'url' ? urlElicitationKey(serverName, params.elicitationId) : undefined;
    if (key !== undefined) this.openUrlElicitation(key, asker.session);
    try {
      const result = await asker.elicit(named as ElicitRequestFormParams | ElicitRequestURLParams, {
        signal,
        timeout: this.timeoutMs,
      });
      // Declined or cancelled: no page was opened, so nothing will be completed.
      if (key !== undefined && result.action !== 'accept') this.urlElicitations.delete(key);
      return result;
    } catch (error) {
      if (key !== undefined) this.urlElicitations.delete(key);
      throw error;
    }
  }

  /**
   * Told only to the client that server asked that elicitation of, once: another server naming the same id, or the
   * same server naming an id it never asked about, would tell a client that a page it waits on is done when it is not.
   */
  elicitationComplete(serverName: string, elicitationId: string): void {
    const key = urlElicitationKey(serverName, elicitationId);
    const session = this.urlElicitations.get(key);
    if (session === undefined) return;
    this.urlElicitations.delete(key);
    if (!this.sessions.has(session)) return;
    void session.server
      .notification({ method: 'notifications/elicitation/complete', params: { elicitationId } })
      .catch(() => undefined);
  }

  private openUrlElicitation(key: string, session: DownstreamSession): void {
    this.urlElicitations.delete(key);
    this.urlElicitations.set(key, session);
    if (this.urlElicitations.size > MAX_OPEN_URL_ELICITATIONS) {
      this.urlElicitations.delete(this.urlElicitations.keys().next().value!);
    }
  }
}
