/**
 * The downstream sessions of one profile, and what passes between them and the profile's servers apart from calls:
 * servers' log messages, `resources`/`prompts` list changes (debounced), and servers' sampling and elicitation
 * requests.
 *
 * The clients share each server's one connection, so what a server asks or logs during one client's call (a tool
 * call, and as much a `prompts/get`, `resources/read` or `completion/complete` forwarded to it) must not reach another: it may hold that call's data, and the other could answer for it. A request or log message goes to
 * the client of the call it came with when the transport tells (a Streamable HTTP server sends it on that call's own
 * stream: see connections/call-streams.ts), and to no other once that call has been answered: a request is then
 * refused, and a log message goes to that client on its standing stream. Otherwise, and a stdio server's never tell, a request goes to the one
 * client whose calls to that server are in flight, or to the only client connected, and is refused with the reason
 * when calls of several clients are in flight (which one it belongs to is not known) or none are while several
 * clients are connected. A log message that does not tell goes to the clients that set a level with
 * `logging/setLevel` (they asked for the server's log), to the one client calling that server if only one is, and to
 * the only client connected; a stateless session, which has no stream of its own, hears it once, on its newest
 * call's stream, and only while no other client is calling that server. Each client gets only the levels it asked
 * for. A 2026-07-28 client asks request by request, in the request's `_meta`: it hears log messages only on its calls'
 * streams, as a stateless session does, held to the level its call's request asked for, and none on a request that
 * asked for none. The servers are asked for the most verbose level the clients want, and asked again when a client
 * whose level that was goes (see `lookAgain`).
 *
 * What goes to a client as part of a call goes on that call's own response stream, which every client reads (over
 * Streamable HTTP a client need not open the standing GET stream): what the transport says came with the call, and
 * what does not tell while that call is the only one to that server in flight. The rest goes to a client on its
 * standing stream: while one client has several calls to that server in flight, what does not tell is that client's
 * but not known to be any one call's, and a client that is itself a gateway would put it to the client of whichever
 * call it came as part of. A stateful HTTP client that never had a standing stream would not see it there, and gets it
 * on its newest call's stream instead, once: it reads no other. One whose standing stream dropped still gets it there,
 * kept in the session's event store until it resumes that stream, and not on a call's stream, where a client that is
 * itself a gateway serving several users would put it to that call's user.
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
import { namedElicitation } from './forwarded-elicitation.js';
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
   * Set where the client has no stream of its own to hear log messages on: the server answering one request of a
   * stateless HTTP session, and a 2026-07-28 client's (which has no session, and asks for log messages request by
   * request). A server's log message reaches it only on the stream of its own call to that server. `client` is the
   * session's id (`stdio` for a connection's), which tells its calls from other clients'; none where each request is
   * a client of its own (a 2026-07-28 request over HTTP).
   */
  callStreamsOnly?: { client: string | undefined };
  /**
   * Set for a stateful HTTP session: whether its client has ever had the standing stream (Streamable HTTP leaves it to
   * the client), open now or dropped and to be resumed. Unset, as over stdio, the session always has one.
   */
  hadStandingStream?: () => boolean;
}

type LogMessage = LoggingMessageNotification['params'];

/** Whether a client wants log messages of `level`: it set no level, or one no more severe. */
export function acceptsLevel(session: DownstreamSession, level: LoggingLevel): boolean {
  return session.logLevel === undefined || atLeast(level, session.logLevel);
}

/** Whether `level` is `threshold` or more severe. */
export function atLeast(level: LoggingLevel, threshold: LoggingLevel): boolean {
  return LEVELS.indexOf(level) >= LEVELS.indexOf(threshold);
}

/** `value` when it names a log level of the specification. */
export function loggingLevelOf(value: unknown): LoggingLevel | undefined {
  return LEVELS.find((level) => level === value);
}

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
  /** Whether the call's client wants log messages of `level` on it: the level its session or its request set. */
  accepts(level: LoggingLevel): boolean;
}

/** A call of a client to a server, in progress: what its calls to servers are made in the name of, and its end. */
export interface CallInProgress {
  /** Given to `asCallOf` (connections/call-being-made.ts) around the call, so that what comes with it is known. */
  readonly call: object;
  ended(): void;
}

/**
 * Reaching a client other than as part of a call: on its standing stream (a stateless session, which has none, sends
 * a request on the response of the request it is serving).
 */
function onItsOwn(session: DownstreamSession): Asker {
  return {
    session,
    sampling: (params, options) => session.server.createMessage(params, options),
    elicit: (params, options) => session.server.elicitInput(params, options),
    log: (params) => void session.server.sendLoggingMessage(params).catch(() => undefined),
    accepts: (level) => acceptsLevel(session, level),
  };
}

/**
 * Whether a stateful HTTP session's client never had a standing stream: what is sent to it on its own would wait in
 * the session's event store for a stream it will not resume.
 */
function neverHadStandingStream(session: DownstreamSession): boolean {
  return session.hadStandingStream?.() === false;
}

/** Which client a call is of: a stateless session's every request has a session object of its own. */
function clientOf(asker: Asker): unknown {
  const callStreamsOnly = asker.session.callStreamsOnly;
  return callStreamsOnly?.client === undefined ? asker.session : callStreamsOnly.client;
}

/** Stateless clients' log levels kept at most (see `storedLevels`); the longest unseen is let go past it. */
const MAX_STORED_LEVELS = 10_000;

/**
 * What the servers are asked for once no client that asked for a level is left, unless they were asked for a more
 * severe one: they cannot be told to go back to their own default, and debug traffic is what nobody then wants.
 */
const LEVEL_NOBODY_ASKED_FOR: LoggingLevel = 'info';

/** Stored levels that lapse within this of one another are let go together, with one look at the servers' level. */
const LAPSED_LEVELS_GATHERED_MS = 1_000;

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
  /** Every call `callStarted` made, for as long as anything holds it: what comes with one is its, even once answered. */
  private readonly callsMade = new WeakSet<object>();
  /**
   * The level each stateless client (by session id) set, as last seen on this replica, until its session may have
   * been forgotten: between its requests it has no session object here, yet the servers must go on sending what it
   * wants. Longest unseen first.
   */
  private readonly storedLevels = new Map<string, { level: LoggingLevel; until: number }>();
  /** The level the servers were last asked for, if any. */
  private asked: LoggingLevel | undefined;
  /** Set while a stored level is kept: when the first of them lapses. */
  private lapseTimer: { at: number; timer: NodeJS.Timeout } | undefined;
  /** The most verbose stored level let go past `MAX_STORED_LEVELS` since the servers' level was last looked at. */
  private evicted: LoggingLevel | undefined;
  /** Set by `close`: a request still finishing then stores no level, arms no timer and has no level asked. */
  private closed = false;
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
   * @param askServers asks the servers for a less verbose level once the client that wanted theirs has gone.
   */
  constructor(
    private readonly timeoutMs: number,
    private readonly events?: ServerEventBus,
    private readonly askServers?: (level: LoggingLevel) => Promise<void>,
  ) {}

  add(session: DownstreamSession): void {
    this.sessions.add(session);
  }

  remove(session: DownstreamSession): void {
    this.sessions.delete(session);
    for (const [key, asked] of this.urlElicitations) if (asked === session) this.urlElicitations.delete(key);
    // A stateless session's level stays kept for its client's later requests (see `storedLevels`) unless its client
    // ended the session meanwhile.
    const client = session.callStreamsOnly?.client;
    const kept = client !== undefined && this.storedLevels.has(client);
    if (!kept && this.mayHaveWantedAsked(session.logLevel)) this.lookAgain();
  }

  /** A stateless client's session ended (DELETE): its level no longer counts. */
  forgetStoredLevel(client: string): void {
    const stored = this.storedLevels.get(client);
    if (stored === undefined) return;
    this.storedLevels.delete(client);
    if (this.mayHaveWantedAsked(stored.level)) this.lookAgain();
  }

  /** Whether a client that wanted `level` may have been the one the servers' level was asked for. */
  private mayHaveWantedAsked(level: LoggingLevel | undefined): boolean {
    return level !== undefined && this.asked !== undefined && atLeast(this.asked, level);
  }

  /**
   * A client that counted went: the servers are asked for the most verbose level of those left, where it differs from
   * the one they were asked for (no request when it does not), and for no more than `LEVEL_NOBODY_ASKED_FOR` when
   * nobody is left.
   */
  private lookAgain(): void {
    if (this.closed || this.asked === undefined) return;
    const wanted =
      this.mostVerboseWanted() ?? (atLeast(this.asked, LEVEL_NOBODY_ASKED_FOR) ? this.asked : LEVEL_NOBODY_ASKED_FOR);
    if (wanted === this.asked) return;
    this.asked = wanted;
    void this.askServers?.(wanted).catch(() => undefined);
  }

  /** A call of `session` to `server` began: a tool call, or a prompt, resource read or completion forwarded. */
  callStarted(
    server: string,
    session: DownstreamSession,
    ask: Pick<Asker, 'sampling' | 'elicit' | 'log' | 'accepts'>,
  ): CallInProgress {
    const asker: Asker = { session, ...ask };
    this.callsMade.add(asker);
    const stack = this.calls.get(server) ?? [];
    stack.push(asker);
    this.calls.set(server, stack);
    return {
      call: asker,
      ended: () => {
        const at = stack.indexOf(asker);
        if (at >= 0) stack.splice(at, 1);
        if (stack.length === 0) this.calls.delete(server);
      },
    };
  }

  /** The call that `call` (what the transport said a message came with) names, in progress or answered. */
  private namedCall(call: object | undefined): Asker | undefined {
    return call !== undefined && this.callsMade.has(call) ? (call as Asker) : undefined;
  }

  private inProgress(server: string, asker: Asker): boolean {
    return this.calls.get(server)?.includes(asker) === true;
  }

  /** The clients with calls to `server` in progress. */
  private callers(server: string): Set<unknown> {
    return new Set((this.calls.get(server) ?? []).map(clientOf));
  }

  /**
   * Records the level a client asked for and answers the level the servers should now use: the most verbose any
   * client of the profile asked for, stateless clients with no request here now included. `keptForMs`: how long a
   * stateless client's session lasts unused. Once closed, none: a request still finishing asks the servers nothing.
   */
  setLevel(session: DownstreamSession, level: LoggingLevel, keptForMs?: number): LoggingLevel | undefined {
    session.logLevel = level;
    if (this.closed) return undefined;
    // A stateless client's requests in flight read its level before: each would hold a message it does not tell apart
    // from the others' (see `log`) to a level the client no longer wants.
    const client = session.callStreamsOnly?.client;
    if (client !== undefined) {
      for (const other of this.sessions) if (other.callStreamsOnly?.client === client) other.logLevel = level;
      if (keptForMs !== undefined) this.keepStoredLevel(client, level, keptForMs);
    }
    this.asked = this.mostVerboseWanted() ?? level;
    return this.asked;
  }

  /**
   * A stateless client's level, read from its session's record for a request served here (it may have set it on
   * another replica): kept as `setLevel` keeps it. Answers the level to ask the servers for now when they were asked
   * for none or for a more severe one, so that they send what it wants during its calls.
   */
  storedLevel(client: string, level: LoggingLevel, keptForMs: number): LoggingLevel | undefined {
    // A more verbose level the client asked for before counts until it lapses, and its lapse has the servers asked
    // again: replaced, it would hold them to it for as long as the client called, and asked again at once, they would
    // be asked up and down by a client whose requests ask for different levels.
    if (this.closed) return undefined;
    const before = this.storedLevels.get(client);
    if (before !== undefined && !atLeast(before.level, level)) {
      if (before.until > Date.now()) return undefined;
      // Lapsed, and replaced before its lapse was seen: the servers are asked again as that would have them asked.
      this.keepStoredLevel(client, level, keptForMs);
      if (this.mayHaveWantedAsked(before.level)) this.lookAgain();
      return undefined;
    }
    this.keepStoredLevel(client, level, keptForMs);
    if (this.asked !== undefined && atLeast(level, this.asked)) return undefined;
    this.asked = this.mostVerboseWanted() ?? level;
    return this.asked;
  }

  private keepStoredLevel(client: string, level: LoggingLevel, keptForMs: number): void {
    if (this.closed) return;
    this.storedLevels.delete(client);
    const until = Date.now() + keptForMs;
    this.storedLevels.set(client, { level, until });
    if (this.storedLevels.size > MAX_STORED_LEVELS) this.evictLongestUnseen();
    this.lookAgainAt(until);
  }

  /**
   * Lets the longest unseen stored level go, and has the servers' level looked at again: the client let go may be the
   * one that held them to it. Once for the evictions of one turn, not once each, as a burst of new clients makes many.
   */
  private evictLongestUnseen(): void {
    const [client, stored] = this.storedLevels.entries().next().value!;
    this.storedLevels.delete(client);
    const pending = this.evicted !== undefined;
    if (!pending || !atLeast(stored.level, this.evicted!)) this.evicted = stored.level;
    if (pending) return;
    queueMicrotask(() => {
      const evicted = this.evicted;
      this.evicted = undefined;
      if (this.mayHaveWantedAsked(evicted)) this.lookAgain();
    });
  }

  /** Has the servers' level looked at again when a stored level lapses (its client's session expired unused). */
  private lookAgainAt(until: number): void {
    if (this.closed) return;
    const at = until + LAPSED_LEVELS_GATHERED_MS;
    if (this.lapseTimer !== undefined && this.lapseTimer.at <= at) return;
    if (this.lapseTimer !== undefined) clearTimeout(this.lapseTimer.timer);
    const timer = setTimeout(() => this.storedLevelsLapsed(), Math.max(0, at - Date.now()));
    // Kept levels alone do not keep the process alive.
    timer.unref();
    this.lapseTimer = { at, timer };
  }

  private storedLevelsLapsed(): void {
    this.lapseTimer = undefined;
    const now = Date.now();
    let lapsed: LoggingLevel | undefined;
    let next = Number.POSITIVE_INFINITY;
    for (const [client, stored] of this.storedLevels) {
      if (stored.until > now) next = Math.min(next, stored.until);
      else {
        this.storedLevels.delete(client);
        if (lapsed === undefined || !atLeast(stored.level, lapsed)) lapsed = stored.level;
      }
    }
    if (this.mayHaveWantedAsked(lapsed)) this.lookAgain();
    if (next !== Number.POSITIVE_INFINITY) this.lookAgainAt(next);
  }

  /** The most verbose level a client of the profile wants: its sessions', and stateless clients' kept levels. */
  private mostVerboseWanted(): LoggingLevel | undefined {
    let lowest = LEVELS.length;
    for (const session of this.sessions) {
      if (session.logLevel !== undefined) lowest = Math.min(lowest, LEVELS.indexOf(session.logLevel));
    }
    const now = Date.now();
    for (const [client, stored] of this.storedLevels) {
      if (stored.until <= now) this.storedLevels.delete(client);
      else lowest = Math.min(lowest, LEVELS.indexOf(stored.level));
    }
    return LEVELS[lowest];
  }

  /**
   * A server's log message (already redacted and rate-limited by the host), to the clients it may reach (see the top
   * of this file) that want its level. `call`: the call it came with, when the transport tells.
   */
  log(entry: ServerLogEntry, call?: object): void {
    const wants = (session: DownstreamSession) => acceptsLevel(session, entry.level);
    const message: LogMessage = {
      level: entry.level,
      logger: entry.logger === undefined ? entry.server : `${entry.server}/${entry.logger}`,
      data: entry.data,
    };
    // What goes to a caller goes on its call's own stream, which it reads whether or not it opened a standing one.
    const related = this.namedCall(call);
    if (related !== undefined) {
      if (!related.accepts(entry.level)) return;
      if (this.inProgress(entry.server, related)) related.log(message);
      // Its call answered, it is still that client's and no other's: it goes to it on its own.
      else if (related.session.callStreamsOnly === undefined) onItsOwn(related.session).log(message);
      return;
    }
    const calls = this.calls.get(entry.server) ?? [];
    const callers = this.callers(entry.server);
    const soleCaller = callers.size === 1 ? [...callers][0] : undefined;
    // The only call to that server in flight: the message is taken to come with it, as a request would be.
    const onlyCall = calls.length === 1 ? calls[0] : undefined;
    const onlySession = this.sessions.size === 1;
    const newest = calls[calls.length - 1];
    // The only call, or one of several calls of a client that never had a standing stream to hear it on (a stateless
    // one never has one): sent on a call's stream, once, not on each (the client would hear it as often as it has
    // calls in flight). On the newest's: a stateless client's newest request is the likeliest to have read from the
    // session's record the log level the client set last, and one set on this replica since reached every request of
    // that client's here (see `setLevel`): held to it, the message goes only where the client wants its level.
    const onCallStream =
      soleCaller === undefined || newest === undefined
        ? undefined
        : newest === onlyCall || newest.session.callStreamsOnly !== undefined || neverHadStandingStream(newest.session)
          ? newest
          : undefined;
    for (const session of this.sessions) {
      if (session.callStreamsOnly !== undefined || !wants(session) || session === onCallStream?.session) continue;
      if (!onlySession && session.logLevel === undefined && session !== soleCaller) continue;
      void session.server.sendLoggingMessage(message).catch(() => undefined);
    }
    if (onCallStream?.accepts(entry.level)) onCallStream.log(message);
  }

  changed(kind: 'resources' | 'prompts'): void {
    this.listChanged.changed(kind, kind);
  }

  close(): void {
    this.closed = true;
    this.storedLevels.clear();
    this.listChanged.close();
    if (this.lapseTimer !== undefined) clearTimeout(this.lapseTimer.timer);
    this.lapseTimer = undefined;
  }

  private askerFor(server: string, what: string, call: object | undefined): Asker {
    const related = this.namedCall(call);
    if (related !== undefined) {
      if (this.inProgress(server, related)) return related;
      // Known to be that call's: put to anyone else as though nothing said whose it is, it could reach another client.
      throw refuse(
        `server "${server}" asked for ${what} on the stream of a call that has already been answered: refused rather than put to a client whose call it is not`,
      );
    }
    const stack = this.calls.get(server) ?? [];
    const callers = this.callers(server).size;
    if (callers > 1) {
      throw refuse(
        `server "${server}" asked for ${what} while calls of ${callers} clients to it are in flight, and nothing in the request says which call it belongs to: refused rather than put to a client whose call it may not be`,
      );
    }
    // The one client's only call to that server: the request is taken to come with it, and is sent as part of it.
    if (stack.length === 1) return stack[0]!;
    // Several calls of one client: the request is that client's but not known to be any one call's, so it is sent on
    // its own, not as part of the newest call, which a client that is itself a gateway would put to that call's client.
    // Unless the client never had a standing stream: sent on its own, it would not be seen and would only time out.
    const newest = stack[stack.length - 1];
    if (newest !== undefined) return neverHadStandingStream(newest.session) ? newest : onItsOwn(newest.session);
    if (this.sessions.size === 1) return onItsOwn([...this.sessions][0]!);
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
    call?: object,
  ): Promise<CreateMessageResult | CreateMessageResultWithTools> {
    const asker = this.askerFor(serverName, 'sampling', call);
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

  async elicitation(
    serverName: string,
    params: ElicitRequest['params'],
    signal: AbortSignal,
    call?: object,
  ): Promise<ElicitResult> {
    const asker = this.askerFor(serverName, 'elicitation', call);
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
    const named = namedElicitation(serverName, params as ElicitRequestFormParams | ElicitRequestURLParams);
    const key = params.mode === 'url' ? urlElicitationKey(serverName, params.elicitationId) : undefined;
    if (key !== undefined) this.openUrlElicitation(key, asker.session);
    try {
      const result = await asker.elicit(named, {
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
