/**
 * A host that is itself a server (the gateway) does not answer servers' sampling and elicitation requests with its
 * own model and its own user: it passes them on to whoever is upstream of it. This seam installs handlers that hand
 * each request to a forwarder, after the same depth bound as the local handlers, and records it in the audit with the
 * forwarder as the approver.
 */
import type {
  Client,
  ClientContext,
  CreateMessageRequest,
  CreateMessageResult,
  CreateMessageResultWithTools,
  ElicitRequest,
  ElicitResult,
} from '@modelcontextprotocol/client';
import { callOfStream } from '../connections/call-streams.js';
import { exceedsJsonDepth, JsonTooDeepError } from '../json/json-depth.js';
import { byteLength, type ClientRequestRecorder, withoutBinaryData } from './client-request-audit.js';
import { type BoundQuestions, declined, refusedSampling } from './waiting-questions.js';

export interface ClientRequestForwarder {
  /** Who answered, as the audit records it. */
  readonly kind: string;
  /**
   * Rejects with a protocol error when no one upstream can answer (the server receives it as its error). `call`: the
   * call the request came with, as its caller named it, when the transport can tell (see
   * connections/call-streams.ts).
   */
  sampling(
    serverName: string,
    params: CreateMessageRequest['params'],
    signal: AbortSignal,
    call?: object,
  ): Promise<CreateMessageResult | CreateMessageResultWithTools>;
  elicitation(
    serverName: string,
    params: ElicitRequest['params'],
    signal: AbortSignal,
    call?: object,
  ): Promise<ElicitResult>;
  /** The server says a URL elicitation it forwarded earlier is complete. */
  elicitationComplete?(serverName: string, elicitationId: string): void;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function installForwardingHandlers(
  client: Client,
  serverName: string,
  forwarder: ClientRequestForwarder,
  record: ClientRequestRecorder | undefined,
  bounded: BoundQuestions,
): void {
  const audited = async <T>(
    method: 'sampling/createMessage' | 'elicitation/create',
    summary: unknown,
    context: ClientContext,
    forward: (signal: AbortSignal) => Promise<T>,
    answerOf: (result: T) => string,
  ): Promise<T> => {
    const startedAt = new Date();
    const started = performance.now();
    const signal = context.mcpReq.signal;
    const base = { server: serverName, method, request: summary, approver: forwarder.kind, startedAt };
    try {
      const result = await forward(signal);
      const answer = answerOf(result);
      await record?.({
        ...base,
        answer,
        reason: `Forwarded to the ${forwarder.kind}, which answered ${answer}.`,
        outcome: answer === 'allow' || answer === 'accept' ? 'ok' : answer === 'cancel' ? 'cancelled' : 'denied',
        durationMs: Math.round(performance.now() - started),
        resultBytes: byteLength(result),
      });
      return result;
    } catch (error) {
      await record?.({
        ...base,
        answer: 'deny',
        reason: `Forwarding to the ${forwarder.kind} failed.`,
        outcome: signal.aborted ? 'cancelled' : 'error',
        durationMs: Math.round(performance.now() - started),
        error: messageOf(error),
      });
      throw error;
    }
  };

  client.setRequestHandler(
    'sampling/createMessage',
    bounded(serverName, 'sampling/createMessage', forwardSampling, refusedSampling),
  );
  async function forwardSampling(
    request: CreateMessageRequest,
    context: ClientContext,
  ): Promise<CreateMessageResult | CreateMessageResultWithTools> {
    if (exceedsJsonDepth(request.params)) throw new JsonTooDeepError('the sampling request');
    const params = request.params;
    const call = callOfStream(serverName);
    const summary = {
      systemPrompt: params.systemPrompt,
      messages: withoutBinaryData(params.messages),
      // Not `maxTokens`: the audit log redacts every key that mentions tokens.
      maxOutput: params.maxTokens,
      ...(params.tools ? { tools: params.tools.map((tool) => tool.name) } : {}),
    };
    return audited(
      'sampling/createMessage',
      summary,
      context,
      (signal) => forwarder.sampling(serverName, params, signal, call),
      () => 'allow',
    );
  }

  const complete = forwarder.elicitationComplete?.bind(forwarder);
  if (complete) {
    client.setNotificationHandler('notifications/elicitation/complete', (notification) =>
      complete(serverName, notification.params.elicitationId),
    );
  }

  client.setRequestHandler(
    'elicitation/create',
    bounded(serverName, 'elicitation/create', forwardElicitation, declined),
  );
  async function forwardElicitation(request: ElicitRequest, context: ClientContext): Promise<ElicitResult> {
    if (exceedsJsonDepth(request.params)) throw new JsonTooDeepError('the elicitation request');
    const params = request.params;
    const call = callOfStream(serverName);
    // The audit keeps what was asked, never what the user typed.
    const summary =
      params.mode === 'url'
        ? { mode: 'url', message: params.message, url: params.url, elicitationId: params.elicitationId }
        : { mode: 'form', message: params.message, fields: Object.keys(params.requestedSchema?.properties ?? {}) };
    return audited(
      'elicitation/create',
      summary,
      context,
      (signal) => forwarder.elicitation(serverName, params, signal, call),
      (result) => result.action,
    );
  }
}
