/**
 * Builds the SDK client and the right transport for one server config, and runs the handshake.
 * Errors name the server, what went wrong and, for stdio servers, the tail of their stderr.
 */
import { statSync } from 'node:fs';
import {
  Client,
  type ClientCapabilities,
  type FetchLike,
  type Implementation,
  SSEClientTransport,
  StreamableHTTPClientTransport,
  SUPPORTED_PROTOCOL_VERSIONS,
  type Transport,
} from '@modelcontextprotocol/client';
import { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import type { RemoteServerConfig, ServerConfig, StdioServerConfig } from '../config/types.js';
import { linkCallStreams, readInNoCallersContext } from './call-streams.js';
import type { HostWrittenAnswers } from './host-written-answers.js';
import { limitResponseSize } from './limit-response-size.js';
import { DEFAULT_MAX_MESSAGE_BYTES } from './message-size-limit.js';
import { messageWithCause } from './message-with-cause.js';
import type { AuthorizationSession } from './oauth/authorization-session.js';
import type { RemoteAuthorization } from './oauth/remote-authorization.js';
import { createOutputSchemaValidator } from './output-schema-validator.js';
import { PendingRequests } from './pending-requests.js';
import { ProcessGroupStdioTransport } from './process-group-stdio-transport.js';
import { handProgressOnLatest } from './progress-hand-on-transport.js';
import type { RenamedAnswers } from './renamed-answers.js';
import { exitWords, OUTPUT_CLOSED_WHILE_RUNNING } from './server-exit.js';
import type { OpenSpill } from './spilled-text.js';
import { describeStartCommand } from './start-command.js';
import { strayAnswerReporter } from './stray-answers.js';

/** What to do about a start-up timeout, in the config's words. */
const STARTUP_TIMEOUT_HINT = "raise the server's `startupTimeoutMs` if it needs longer";

interface CreateTransportOptions {
  connectTimeoutMs: number;
  clientInfo: Implementation;
  onDiagnostic: (message: string) => void;
  onToolsChanged: () => void;
  /** What the client declares (roots, sampling, elicitation…). Default: nothing beyond tools. */
  capabilities?: ClientCapabilities;
  /** Installs request/notification handlers for the declared capabilities on a new client. */
  configureClient?: (client: Client, config: ServerConfig) => void;
  /** A transport made by the caller (in-memory servers in tests and benchmarks); undefined = the config's. */
  transportFactory?: (config: ServerConfig) => Transport | undefined;
  /** OAuth for remote servers (`createRemoteAuthorization`); undefined = remote servers get no OAuth. */
  authorization?: RemoteAuthorization;
  /** Where a stdio server's tool result text too long to hold in memory is written (see spilled-text.ts). */
  openSpill?: OpenSpill;
  /** Where the transport notes the error answers it writes in place of the server's (see host-written-answers.ts). */
  hostWritten?: HostWrittenAnswers;
  /** Whether the transport's answers held renamed keys, for the client's `outputSchema` check (see renamed-answers.ts). */
  renamed?: RenamedAnswers;
  /** Values a stdio server's command line and working folder are printed without (`HostConfig.secrets`). */
  secrets?: readonly string[];
}

function createClient(options: CreateTransportOptions, config: ServerConfig): Client {
  const client = new Client(options.clientInfo, {
    capabilities: options.capabilities ?? {},
    versionNegotiation: { mode: config.versionNegotiation ?? 'legacy' },
    jsonSchemaValidator: createOutputSchemaValidator(options.onDiagnostic, options.renamed),
  });
  client.setNotificationHandler('notifications/tools/list_changed', () => options.onToolsChanged());
  options.configureClient?.(client, config);
  return client;
}

export async function createTransport(
  config: ServerConfig,
  options: CreateTransportOptions,
): Promise<{ client: Client; transport: Transport }> {
  const custom = options.transportFactory?.(config);
  if (custom) {
    const client = createClient(options, config);
    await withTimeout(client.connect(custom), options.connectTimeoutMs, 'did not finish initialize in time');
    return { client, transport: custom };
  }
  if (config.transport === 'stdio') return connectStdio(config, options);
  return connectRemote(config, options);
}

async function connectStdio(config: StdioServerConfig, options: CreateTransportOptions) {
  const spawned = new ProcessGroupStdioTransport({
    command: config.command,
    args: config.args,
    // Only a safe default environment plus the server's own `env`: the host's API keys stay private.
    env: { ...getDefaultEnvironment(), ...config.env },
    cwd: config.cwd,
    onDiagnostic: options.onDiagnostic,
    maxMessageBytes: config.maxMessageBytes,
    openSpill: options.openSpill,
    hostWritten: options.hostWritten,
  });
  // The transport keeps its own requests in flight, and nothing a stdio server writes says which call it belongs to.
  const transport = readInNoCallersContext(spawned, config.name, spawned.pending);
  const client = createClient(options, config);
  try {
    await withTimeout(
      client.connect(transport),
      options.connectTimeoutMs,
      `did not finish initialize within ${options.connectTimeoutMs} ms (${STARTUP_TIMEOUT_HINT})`,
    );
    return { client, transport };
  } catch (error) {
    // Told before it is stopped: a server still running when the time ran out started and never answered.
    const runningPid =
      error instanceof StartupTimeoutError && transport.exit === undefined && transport.endedOnItsOwn === undefined
        ? transport.pid
        : undefined;
    // Let the exit status and last stderr bytes arrive before describing the failure.
    await delay(50);
    await transport.close().catch(() => undefined);
    const tail = transport.stderr.tail(15);
    if (runningPid !== undefined) {
      throw new Error(neverAnswered(config, runningPid, options, tail), { cause: error });
    }
    throw new Error(
      `server "${config.name}" failed to start${startFailure(error, transport, config, options.secrets)}${tail ? `\nstderr tail:\n${tail}` : ''}`,
      { cause: error },
    );
  }
}

/**
 * A server that started and ran until the start-up timeout without answering initialize: what was run, where, and
 * what it wrote on stderr, so that a command that is no MCP server (`node` with no script waits for one on stdin)
 * can be told from a server that needs longer.
 */
function neverAnswered(config: StdioServerConfig, pid: number, options: CreateTransportOptions, tail: string): string {
  return [
    `server "${config.name}" failed to start: it started (pid ${pid}) and was still running, but did not answer initialize within ${describeDuration(options.connectTimeoutMs)}, so the host stopped it; ${STARTUP_TIMEOUT_HINT}`,
    describeStartCommand(config, options.secrets),
    tail ? `stderr tail:\n${tail}` : 'stderr: nothing written',
  ].join('\n');
}

/** `30 s`, `1.5 s`; below a second, in milliseconds. */
function describeDuration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${ms / 1000} s`;
}

async function connectRemote(config: RemoteServerConfig, options: CreateTransportOptions) {
  const session = await options.authorization?.forServer(config);
  if (!session) return connectRemoteOnce(config, options, undefined);
  // Loaded with the first authorization session: stdio-only hosts never load OAuth.
  const { connectWithAuthorization } = await import('./oauth/connect-with-authorization.js');
  return connectWithAuthorization(session, () => connectRemoteOnce(config, options, session));
}

async function connectRemoteOnce(
  config: RemoteServerConfig,
  options: CreateTransportOptions,
  session: AuthorizationSession | undefined,
) {
  const url = new URL(config.url);
  const requestInit: RequestInit = { headers: config.headers };
  const sessionOptions = session?.transportOptions();
  const baseFetch: FetchLike = sessionOptions?.fetch ?? ((input, init) => fetch(input, init));
  // What the host waits for on this connection, so that an answer on a stream no request of its own is behind (the
  // standing GET stream, the legacy HTTP+SSE stream) can fail the request it names (see limit-response-size.ts), and
  // which call a server's request came with can be told (see call-streams.ts).
  const pending = new PendingRequests();
  const transportOptions = {
    requestInit,
    ...sessionOptions,
    fetch: limitResponseSize(baseFetch, config.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES, options.hostWritten, {
      pending,
      strays: strayAnswerReporter(options.onDiagnostic),
    }),
  };
  // `linked`: whether what belongs to a call comes on that call's own response stream (see call-streams.ts).
  const wrap = <T extends Transport>(transport: T, linked: boolean): T => {
    const watched = handProgressOnLatest(linkCallStreams(transport, config.name, pending, linked), () =>
      options.onDiagnostic(
        'sends progress notifications faster than they can be used; only the latest of each burst is passed on',
      ),
    );
    return session ? session.wrapTransport(watched) : watched;
  };
  if (config.transport === 'sse') {
    const client = createClient(options, config);
    const transport = wrap(new SSEClientTransport(url, transportOptions), false);
    await withTimeout(
      client.connect(transport),
      options.connectTimeoutMs,
      `did not connect within ${options.connectTimeoutMs} ms (${STARTUP_TIMEOUT_HINT})`,
    ).catch((error) => {
      throw new Error(
        `server "${config.name}" (${config.url}, legacy SSE) failed to connect: ${messageWithCause(error)}`,
        {
          cause: error,
        },
      );
    });
    return { client, transport };
  }
  const client = createClient(options, config);
  const transport = wrap(new StreamableHTTPClientTransport(url, transportOptions), true);
  try {
    await withTimeout(
      client.connect(transport),
      options.connectTimeoutMs,
      `did not connect within ${options.connectTimeoutMs} ms (${STARTUP_TIMEOUT_HINT})`,
    );
    return { client, transport };
  } catch (streamableError) {
    await transport.close().catch(() => undefined);
    // A server that speaks only the legacy HTTP+SSE transport answers the POST with 4xx.
    if (!speaksOnlyLegacySse(streamableError)) {
      throw new Error(
        `server "${config.name}" (${config.url}) failed to connect: ${messageWithCause(streamableError)}`,
        {
          cause: streamableError,
        },
      );
    }
    const sseClient = createClient(options, config);
    const sseTransport = wrap(new SSEClientTransport(url, transportOptions), false);
    try {
      await withTimeout(
        sseClient.connect(sseTransport),
        options.connectTimeoutMs,
        `did not connect within ${options.connectTimeoutMs} ms (${STARTUP_TIMEOUT_HINT})`,
      );
      return { client: sseClient, transport: sseTransport };
    } catch (sseError) {
      throw new Error(
        `server "${config.name}" (${config.url}) failed to connect over Streamable HTTP (${messageWithCause(streamableError)}) and legacy SSE (${messageWithCause(sseError)})`,
        { cause: sseError },
      );
    }
  }
}

/**
 * Why a stdio server failed to start, after "failed to start". A server that went away by itself is said to have
 * done so, with its exit code or signal, whatever the symptom the handshake met first (the connection closed, a write
 * to its closed input, an error answer put in place of the one it could not give): which one comes first is a race.
 */
function startFailure(
  error: unknown,
  transport: ProcessGroupStdioTransport,
  config: StdioServerConfig,
  secrets: readonly string[] | undefined,
): string {
  const described = transport.closeReason ?? describeStartError(error, config, secrets);
  const gone = transport.endedOnItsOwn;
  // What the server answered (a protocol version the client does not know) says more than its leaving after it.
  if (gone !== undefined && transport.closeReason === undefined && !isProtocolVersionError(error)) {
    if (gone.outputClosedWhileRunning)
      return `: it ${OUTPUT_CLOSED_WHILE_RUNNING}, before answering initialize; the host stopped it`;
    const how = gone.exit === undefined ? 'closed the connection' : exitWords(gone.exit);
    return `: it ${how} before answering initialize`;
  }
  const exit = transport.exit;
  return `${exit ? ` (${exit.signal ? `killed by ${exit.signal}` : `exited with code ${exit.code}`})` : ''}: ${described}`;
}

function describeStartError(error: unknown, config: StdioServerConfig, secrets: readonly string[] | undefined): string {
  const message = messageOf(error);
  const spawnCode = spawnFailureCode(error);
  if (spawnCode !== undefined) return `${notStarted(spawnCode, config)}\n${describeStartCommand(config, secrets)}`;
  const unsupported = /protocol version is not supported: (\S+)/i.exec(message);
  if (unsupported) {
    // The client offers the newest version it supports; the server must answer with one the client knows.
    return `it answered initialize with protocol version ${unsupported[1]}, which this client does not support (the client asked for ${SUPPORTED_PROTOCOL_VERSIONS[0]}; it supports ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}). Update the server, or use a server version that speaks one of these.`;
  }
  if (isProtocolVersionError(error)) {
    return `${message} (this client supports ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`;
  }
  return message;
}

/** The system's code for a process that could not be started at all (`ENOENT`, `EACCES`…), else undefined. */
function spawnFailureCode(error: unknown): string | undefined {
  const syscall = (error as NodeJS.ErrnoException | undefined)?.syscall;
  if (typeof syscall !== 'string' || !syscall.startsWith('spawn')) return undefined;
  return systemCode(error);
}

/** An error's system code as it can be printed (`ENOENT`), else `unknown error`. */
function systemCode(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' && /^E[A-Z0-9]+$/.test(code) ? code : 'unknown error';
}

/**
 * Why nothing was started, and what to fix. Printed without the system's own message, which holds the command and
 * its arguments as they are; the command line follows, quoted and redacted.
 */
function notStarted(code: string, config: StdioServerConfig): string {
  // The system says ENOENT for a working folder that is not there too, ENOTDIR for a file in its place and
  // ENAMETOOLONG for one too long: the command is not to blame then.
  const folder = workingFolderProblem(config.cwd);
  if (folder !== undefined) return `its working folder ${folder}: check \`cwd\` in its config entry`;
  if (code === 'ENOENT') {
    return 'command not found: check `command` in its config entry, a program on PATH or the path to one';
  }
  if (code === 'EACCES') {
    return 'its command could not be run (EACCES): check `command` in its config entry, which must name an executable file';
  }
  return `its command could not be run (${code}): check \`command\` in its config entry`;
}

/** What is wrong with the folder a local server is started in, if anything. */
function workingFolderProblem(cwd: string): string | undefined {
  try {
    return statSync(cwd).isDirectory() ? undefined : 'is not a folder';
  } catch (error) {
    const code = systemCode(error);
    return code === 'ENOENT' || code === 'ENOTDIR' ? 'does not exist' : `cannot be used (${code})`;
  }
}

/** The client library refused the server's answer to initialize for its protocol version (it says so only in words). */
function isProtocolVersionError(error: unknown): boolean {
  return /protocol version/i.test(messageOf(error));
}

/** The Streamable HTTP POST was refused the way a legacy HTTP+SSE server refuses it: 400, 404 or 405. */
function speaksOnlyLegacySse(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; current && depth < 5; depth += 1) {
    const status = (current as { data?: { status?: number } }).data?.status;
    if (status === 400 || status === 404 || status === 405) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return /\b(400|404|405)\b/.test(messageOf(error));
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The start-up timeout ran out. */
class StartupTimeoutError extends Error {}

async function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StartupTimeoutError(message)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
