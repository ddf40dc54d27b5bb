/** Turns whatever the SDK threw for a call into a `CallFailure` that says what happened. */

import { ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { CallFailure, type RequiredUrlElicitation } from './call-failure.js';
import { describeLibraryError } from './describe-library-error.js';
import { responseTooLargeText } from './limit-response-size.js';
import { messageWithCause } from './message-with-cause.js';
import type { ErrorAnswerOrigin } from './server-error-answers.js';
import type { ServerExit } from './server-exit.js';

interface CallErrorContext {
  server: string;
  aborted: boolean;
  timeoutMs: number;
  maxTotalTimeoutMs?: number;
  remote: boolean;
  /** How the server went away, and whether the connection already reported that exit as it happened. */
  exitOf: () => { exit: ServerExit; reported: boolean };
  /**
   * Who answered the call with this error, if anyone (see server-error-answers.ts): the server, or the host in its
   * place (an answer nested too deep…). The client library raises some errors of its own with the same class.
   */
  answeredBy: (error: ProtocolError) => ErrorAnswerOrigin | undefined;
}

export function toCallFailure(error: unknown, context: CallErrorContext): CallFailure {
  if (error instanceof CallFailure) return error;
  const options = { cause: error };
  if (context.aborted) return new CallFailure('cancelled', 'the call was cancelled', context.server, options);
  if (error instanceof SdkError) {
    if (error.code === SdkErrorCode.RequestTimeout) {
      const total = /maximum total timeout/i.test(error.message) && context.maxTotalTimeoutMs !== undefined;
      const limit = total
        ? `its hard maximum of ${context.maxTotalTimeoutMs} ms (progress notifications extend the timeout only up to that)`
        : `its timeout of ${context.timeoutMs} ms`;
      return new CallFailure(
        'timeout',
        `the tool did not answer within ${limit}; the server was sent notifications/cancelled`,
        context.server,
        options,
      );
    }
    if (error.code === SdkErrorCode.ConnectionClosed || error.code === SdkErrorCode.NotConnected) {
      const { exit, reported } = context.exitOf();
      return new CallFailure(
        context.remote ? 'disconnected' : 'crashed',
        exit.description,
        context.server,
        reported ? { ...options, serverExit: exit } : options,
      );
    }
  }
  const tooLarge = responseTooLargeText(error);
  if (tooLarge !== undefined) {
    // The host's own words about a response past `maxMessageBytes`, not the server's.
    return new CallFailure('protocol', `server "${context.server}" ${tooLarge}`, context.server, options);
  }
  const origin = error instanceof ProtocolError ? context.answeredBy(error) : undefined;
  if (origin?.by === 'host') {
    // What the host refused of the server's answer, in the host's words: the server did not answer with an error.
    return new CallFailure('protocol', `server "${context.server}" ${origin.words}`, context.server, options);
  }
  if (error instanceof ProtocolError && origin?.by === 'server') {
    const urlElicitations = error.code === URL_ELICITATION_REQUIRED ? requiredUrlElicitations(error.data) : [];
    if (urlElicitations.length > 0) {
      return new CallFailure(
        'protocol',
        'the server needs the user to open a URL before it can answer (URL elicitation required, -32042)',
        context.server,
        { ...options, urlElicitations },
      );
    }
    return new CallFailure('protocol', `the server answered with an error: ${error.message}`, context.server, options);
  }
  // The library's checks of what the server sent (or of whether to send): the server's doing, not the connection's.
  const libraryError = describeLibraryError(error, context.server);
  if (libraryError !== undefined) return new CallFailure('protocol', libraryError, context.server, options);
  if (context.remote) {
    // A dropped connection or a refused request: nothing reports it but this text, so it names the server.
    const message = `the request to server "${context.server}" failed: ${messageWithCause(error)}`;
    return new CallFailure('disconnected', message, context.server, options);
  }
  return new CallFailure('protocol', messageWithCause(error), context.server, options);
}

/** A Streamable HTTP server answered 404 to a request carrying our session id: the session is gone. */
export function isSessionExpired(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; current && depth < 5; depth += 1) {
    const data = (current as { data?: { status?: number } }).data;
    if (data?.status === 404) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** The JSON-RPC error code of "URL elicitation required" (MCP 2025-11-25). */
const URL_ELICITATION_REQUIRED = -32042;
/** A server's error data is untrusted: a few URLs of bounded length are taken, the rest ignored. */
const MAX_REQUIRED_URLS = 3;
const MAX_FIELD_LENGTH = 4_096;

function requiredUrlElicitations(data: unknown): RequiredUrlElicitation[] {
  const list = (data as { elicitations?: unknown } | undefined)?.elicitations;
  if (!Array.isArray(list)) return [];
  const found: RequiredUrlElicitation[] = [];
  for (const item of list.slice(0, MAX_REQUIRED_URLS)) {
    const { mode, url, elicitationId, message } = (item ?? {}) as Record<string, unknown>;
    if (mode !== undefined && mode !== 'url') continue;
    if (typeof url !== 'string' || typeof elicitationId !== 'string') continue;
    found.push({
      url: url.slice(0, MAX_FIELD_LENGTH),
      elicitationId: elicitationId.slice(0, MAX_FIELD_LENGTH),
      message: typeof message === 'string' ? message.slice(0, MAX_FIELD_LENGTH) : '',
    });
  }
  return found;
}
