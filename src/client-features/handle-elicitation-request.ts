/**
 * Answers a server's `elicitation/create`. Form mode: the approver shows the requested fields with their
 * defaults and the user accepts (with values), declines or cancels. URL mode: the approver shows the full URL
 * with its domain, nothing is fetched, and the URL is opened only when the user accepts — by the platform's
 * opener, never through a shell. Modes the host did not declare never reach this handler: the SDK answers them
 * with the error the specification names (-32602, invalid params).
 */
import type { ClientContext, ElicitRequest, ElicitResult } from '@modelcontextprotocol/client';
import { callBeingMade } from '../connections/call-being-made.js';
import { callOfRequest } from '../connections/call-streams.js';
import { exceedsJsonDepth, JsonTooDeepError } from '../json/json-depth.js';
import type { ClientRequestApprover } from './client-request-approver.js';
import type { ClientRequestRecorder } from './client-request-audit.js';
import { describeUrl } from './describe-url.js';
import { formFields } from './elicitation-form-fields.js';
import type { UrlOpener } from './open-url.js';

interface ElicitationHandlerOptions {
  serverName: string;
  approver: ClientRequestApprover;
  openUrl: UrlOpener;
  /** Problems worth telling the user (a URL that could not be opened). */
  onDiagnostic?: (message: string) => void;
  record?: ClientRequestRecorder;
}

type ElicitationHandler = (request: ElicitRequest, context: ClientContext) => Promise<ElicitResult>;

export function createElicitationHandler(options: ElicitationHandlerOptions): ElicitationHandler {
  return async (request, context) => {
    // Refused before any walk over it (summary, audit, translation) could overflow the stack.
    if (exceedsJsonDepth(request.params)) throw new JsonTooDeepError('the elicitation request');
    const params = request.params;
    const signal = context.mcpReq.signal;
    const call = callOfRequest(options.serverName);
    const record = elicitationRecorder(
      options,
      (answer) => `The ${options.approver.kind} approver answered ${answer}.`,
    );

    if (params.mode === 'url') {
      const answer = await askToOpenUrl(options, params, signal, record, call);
      return { action: answer };
    }

    const fields = formFields(params.requestedSchema);
    const answer = await options.approver.elicitForm(
      { serverName: options.serverName, message: params.message, fields, ...(call === undefined ? {} : { call }) },
      signal,
    );
    // The audit keeps which fields were asked for, never what the user typed.
    await record(answer.action, { mode: 'form', message: params.message, fields: fields.map((field) => field.name) });
    return answer.action === 'accept' ? { action: 'accept', content: answer.content } : { action: answer.action };
  };
}

export interface UrlToOpen {
  message: string;
  url: string;
  elicitationId: string;
}

type Recorder = (answer: string, request: unknown, error?: string) => Promise<void>;

/** Records one elicitation answer in the audit, timed from when the recorder was made. */
function elicitationRecorder(options: ElicitationHandlerOptions, reason: (answer: string) => string): Recorder {
  const startedAt = new Date();
  const started = performance.now();
  return async (answer, request, error) => {
    await options.record?.({
      server: options.serverName,
      method: 'elicitation/create',
      request,
      answer,
      approver: options.approver.kind,
      reason: reason(answer),
      outcome: answer === 'accept' ? 'ok' : answer === 'decline' ? 'denied' : 'cancelled',
      startedAt,
      durationMs: Math.round(performance.now() - started),
      ...(error !== undefined ? { error } : {}),
    });
  };
}

/**
 * The URL-mode consent: the approver is shown the full URL and its domain, nothing is fetched, and the URL is
 * opened only on `accept` (and only if it is one the host opens). Returns what the user (or the host) decided.
 */
async function askToOpenUrl(
  options: ElicitationHandlerOptions,
  params: UrlToOpen,
  signal: AbortSignal | undefined,
  record: Recorder,
  call: object | undefined,
): Promise<'accept' | 'decline' | 'cancel'> {
  const url = describeUrl(params.url);
  const answer = await options.approver.elicitUrl(
    {
      serverName: options.serverName,
      message: params.message,
      elicitationId: params.elicitationId,
      url,
      ...(call === undefined ? {} : { call }),
    },
    signal,
  );
  const summary = { mode: 'url', message: params.message, url: params.url, elicitationId: params.elicitationId };
  if (answer !== 'accept') {
    await record(answer, summary);
    return answer;
  }
  if (!url.openable || url.href === undefined) {
    // Consent to an URL the host will not open is no consent to anything: tell the server nothing happened.
    await record('cancel', summary, `not opened: ${url.warnings.join(' ')}`);
    return 'cancel';
  }
  let failure: string | undefined;
  await options.openUrl(url.href).catch((error: unknown) => {
    failure = error instanceof Error ? error.message : String(error);
    options.onDiagnostic?.(
      `could not open the URL server "${options.serverName}" asked for (${failure}); open it yourself: ${url.href}`,
    );
  });
  await record('accept', summary, failure);
  return 'accept';
}

/**
 * A tool call the server refused with -32042 (URL elicitation required): the same consent as a URL-mode
 * `elicitation/create`, recorded in the audit under that method with the tool named in the message.
 */
export async function askToOpenRequiredUrl(
  options: ElicitationHandlerOptions,
  params: UrlToOpen,
  signal?: AbortSignal,
): Promise<'accept' | 'decline' | 'cancel'> {
  const record = elicitationRecorder(
    options,
    (answer) => `The ${options.approver.kind} approver answered ${answer} to a URL the server required (-32042).`,
  );
  // Asked in the refused call's own context: the call it is about is the one being made.
  return askToOpenUrl(options, params, signal, record, callBeingMade());
}
