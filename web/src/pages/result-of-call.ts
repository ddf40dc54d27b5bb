/**
 * Which part of a request to the provider carries one call's result back to the model. A call id may repeat within
 * one answer (and the adapters give a repeated id a new one on the wire), so a call's result is found by the call's
 * place in its answer: the results of the latest answer are the last ones in a request, in call order, in each
 * provider's format (the host's own, Anthropic, OpenAI's two APIs, Gemini).
 */

type Item = { kind: 'call' | 'result'; value: unknown };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** A part inside a message: a call, a result, or neither. */
function kindOfPart(part: Record<string, unknown>): Item['kind'] | undefined {
  if (part.type === 'tool-call' || part.type === 'tool_use' || part.type === 'function_call') return 'call';
  if ('functionCall' in part) return 'call';
  if (part.type === 'tool_result' || part.type === 'function_call_output' || 'functionResponse' in part) {
    return 'result';
  }
  return undefined;
}

/** The calls and results of `messages`, in order. */
function itemsOf(messages: readonly unknown[]): Item[] {
  const items: Item[] = [];
  for (const message of messages) {
    if (!isRecord(message)) continue;
    const own = kindOfPart(message);
    if (own !== undefined) {
      items.push({ kind: own, value: message });
      continue;
    }
    if (message.role === 'tool' && Array.isArray(message.results)) {
      for (const result of message.results) items.push({ kind: 'result', value: result });
      continue;
    }
    if (message.role === 'tool') {
      items.push({ kind: 'result', value: message });
      continue;
    }
    if (Array.isArray(message.tool_calls)) {
      for (const call of message.tool_calls) items.push({ kind: 'call', value: call });
    }
    const parts = Array.isArray(message.content) ? message.content : Array.isArray(message.parts) ? message.parts : [];
    for (const part of parts) {
      const kind = isRecord(part) ? kindOfPart(part) : undefined;
      if (kind !== undefined) items.push({ kind, value: part });
    }
  }
  return items;
}

/**
 * The part of `body` that carries the result of the call at `place` among the calls of the answer just before it (the
 * latest answer's results are the last results in the request); without its place, the last message that names
 * `callId`. Undefined when there is none.
 */
export function resultOfCall(body: unknown, callId: string, place: number | undefined): unknown {
  const record = isRecord(body) ? body : {};
  const messages = record.messages ?? record.input ?? record.contents;
  if (!Array.isArray(messages)) return undefined;
  if (place !== undefined) {
    const items = itemsOf(messages);
    const lastCall = items.findLastIndex((item) => item.kind === 'call');
    const results = items.slice(lastCall + 1).filter((item) => item.kind === 'result');
    const own = results[place];
    if (own !== undefined) return own.value;
  }
  const carrying = messages.filter((message) => JSON.stringify(message).includes(JSON.stringify(callId)));
  return carrying[carrying.length - 1];
}
