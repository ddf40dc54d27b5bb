/**
 * What a chat call card shows of the requests to the provider: the tool's definition as the request of the call's
 * answer sent it, and the call's result as the request after that answer carried it back. Each request carries the
 * whole conversation so far, so the page takes these from a request as it arrives and keeps no request past the
 * next one: a tab following a long conversation would otherwise hold the conversation again at every model answer.
 */
import { resultOfCall } from './result-of-call';

/** The first request to the provider for one model answer, as the page was sent it. */
export interface ProviderRequest {
  /** The model answer it asked for, counted in the run. */
  turn: number;
  body: unknown;
  /** Sent without its body: past what one event carries. */
  cut?: true;
}

/** What a translation shows when the page was sent the request it is read from without its body. */
export const REQUEST_CUT = '(the request was too large to send to the page)';

/** The call a translation is read for: the answer that made it, its id and place, its tool. */
interface CallOfRequest {
  turn: number;
  callId: string;
  index?: number;
  name: string;
}

/** The object in a provider's tool list that defines `name` (the wrapper too, where the provider has one). */
function findToolDefinition(body: unknown, name: string): unknown {
  let found: unknown;
  const walk = (value: unknown, parent: unknown): void => {
    if (found !== undefined || typeof value !== 'object' || value === null) return;
    const record = value as Record<string, unknown>;
    if (
      record.name === name &&
      ('description' in record || 'parameters' in record || 'input_schema' in record || 'inputSchema' in record)
    ) {
      found = parent !== undefined && (parent as Record<string, unknown>).type === 'function' ? parent : value;
      return;
    }
    for (const child of Object.values(record)) walk(child, value);
  };
  walk((body as Record<string, unknown>)?.tools ?? body, undefined);
  return found;
}

/** Translation 1 of `call`, from the request of its answer; undefined when that request was not seen. */
export function toolAsSent(request: ProviderRequest | undefined, call: CallOfRequest): unknown {
  if (request?.turn !== call.turn) return undefined;
  return request.cut ? REQUEST_CUT : (findToolDefinition(request.body, call.name) ?? '(not found)');
}

/** Translation 3 of `call`, from `request` when it is the one after the call's answer; undefined otherwise. */
export function resultAsReturned(request: ProviderRequest, call: CallOfRequest): unknown {
  if (request.turn !== call.turn + 1) return undefined;
  return request.cut ? REQUEST_CUT : (resultOfCall(request.body, call.callId, call.index) ?? '(not found)');
}
