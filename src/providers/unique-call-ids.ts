/**
 * Call ids made unique across one request, for wires that pair a result with its call by id over the whole request:
 * Anthropic refuses a request whose `tool_use` ids repeat ("`tool_use` ids must be unique"), and the Responses API's
 * input is one flat list in which `function_call_output` finds its `function_call` by `call_id`. A model behind a
 * local OpenAI-compatible server names its calls `call_0` at every turn, so a transcript it wrote, sent to either,
 * has ids that repeat. A call whose id an earlier call of the request already has is renamed, and so are the results
 * of its own turn that answer it (a result answers a call of the model answer just before it).
 *
 * Renaming depends only on the messages before, so a request's prefix keeps its bytes from one turn to the next.
 */
import type { Message, ToolCallPart } from './types.js';

export function withUniqueCallIds(messages: readonly Message[]): Message[] {
  const used = new Set<string>();
  // The ids given to the calls of the latest model answer, by the id the model wrote, in the order it made them.
  let given = new Map<string, string[]>();
  return messages.map((message): Message => {
    if (message.role === 'assistant') {
      given = new Map();
      let renamed = false;
      const content = message.content.map((part) => {
        if (part.type !== 'tool-call') return part;
        const id = unusedId(part.id, used);
        used.add(id);
        given.set(part.id, [...(given.get(part.id) ?? []), id]);
        if (id === part.id) return part;
        renamed = true;
        return { ...part, id } satisfies ToolCallPart;
      });
      return renamed ? { ...message, content } : message;
    }
    if (message.role !== 'tool') return message;
    let renamed = false;
    const results = message.results.map((result) => {
      const id = given.get(result.callId)?.shift() ?? result.callId;
      if (id === result.callId) return result;
      renamed = true;
      return { ...result, callId: id };
    });
    return renamed ? { ...message, results } : message;
  });
}

/** `id`, or when it is taken, the first of `id_2`, `id_3` … that is not (the characters every wire accepts). */
function unusedId(id: string, used: ReadonlySet<string>): string {
  if (!used.has(id)) return id;
  for (let count = 2; ; count += 1) {
    const candidate = `${id}_${count}`;
    if (!used.has(candidate)) return candidate;
  }
}
