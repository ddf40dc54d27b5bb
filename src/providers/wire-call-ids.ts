/**
 * Call ids as a wire accepts them. The transcript keeps the ids each model wrote, and after a switch of model a
 * request can hold ids another provider made up, which the target may refuse: Anthropic takes only letters, digits,
 * `_` and `-` (`functions.get_weather:0` from an OpenAI-compatible server gets a 400), OpenAI limits their length.
 * Anthropic also refuses a request whose `tool_use` ids repeat, and the Responses API's input is one flat list in
 * which `function_call_output` finds its `function_call` by `call_id`; a model behind a local OpenAI-compatible server
 * names its calls `call_0` at every turn, so a transcript it wrote has ids that repeat.
 *
 * A call whose id the wire refuses gets one it accepts (refused characters become `_`, an empty id `call`, a long one
 * is cut), and a call whose id an earlier call in scope already has is renamed `id_2`, `id_3` …; the results of its
 * own turn that answer it follow (a result answers a call of the model answer just before it). Renaming depends only
 * on the messages before, so a request's prefix keeps its bytes from one turn to the next (prompt caching).
 */
import type { CallIdRules } from './call-id-rules.js';
import type { Message, ToolCallPart } from './types.js';

export function withWireCallIds(messages: readonly Message[], rules: CallIdRules): Message[] {
  let used = new Set<string>();
  // The ids given to the calls of the latest model answer, by the id the model wrote, in the order it made them.
  let given = new Map<string, string[]>();
  return messages.map((message): Message => {
    if (message.role === 'assistant') {
      given = new Map();
      if (rules.uniqueAcross === 'answer') used = new Set();
      let renamed = false;
      const content = message.content.map((part) => {
        if (part.type !== 'tool-call') return part;
        const id = unusedId(acceptedId(part.id, rules), used, rules.maxLength);
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
      // A result that answers no call of the answer before still goes out with an id the wire accepts.
      const id = given.get(result.callId)?.shift() ?? acceptedId(result.callId, rules);
      if (id === result.callId) return result;
      renamed = true;
      return { ...result, callId: id };
    });
    return renamed ? { ...message, results } : message;
  });
}

/** `id` with each character the wire refuses made `_`, `call` for an empty one, cut to the wire's length. */
function acceptedId(id: string, rules: CallIdRules): string {
  const allowed = rules.refusedCharacters === undefined ? id : id.replaceAll(rules.refusedCharacters, '_');
  return cut(allowed === '' ? 'call' : allowed, rules.maxLength);
}

/** `id`, or when it is taken, the first of `id_2`, `id_3` … that is not, cut so it stays within `maxLength`. */
function unusedId(id: string, used: ReadonlySet<string>, maxLength: number | undefined): string {
  if (!used.has(id)) return id;
  for (let count = 2; ; count += 1) {
    const suffix = `_${count}`;
    const candidate = `${cut(id, maxLength === undefined ? undefined : maxLength - suffix.length)}${suffix}`;
    if (!used.has(candidate)) return candidate;
  }
}

/** The first `maxLength` characters, counted in code points so no surrogate pair is split. */
function cut(text: string, maxLength: number | undefined): string {
  if (maxLength === undefined || text.length <= maxLength) return text;
  return [...text].slice(0, maxLength).join('');
}
