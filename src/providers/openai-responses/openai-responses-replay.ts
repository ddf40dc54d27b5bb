/**
 * An assistant turn of the Responses API, kept so it can be sent back exactly: its output items
 * (reasoning, messages, function calls, the hosted tool search's call and output) with their item ids, in
 * `AssistantMessage.providerReplay`.
 *
 * With `store: false` nothing is kept server-side, so an item id alone refers to nothing, and a
 * function call or message item sent with its id but without the reasoning item that preceded it is
 * answered with 400 ("… was provided without its required 'reasoning' item"). So: reasoning items
 * are replayed only with their `encrypted_content`, and item ids only when that reasoning goes along.
 */
import type { ResponseInputItem, ResponseOutputItem } from 'openai/resources/responses/responses';
import type { AssistantMessage } from '../types.js';

export const responsesProviderId = 'openai-responses';

interface ResponsesReplayData {
  /** The response's output items as the API returned them. */
  items: ResponseOutputItem[];
}

export function toProviderReplay(items: ResponseOutputItem[]): AssistantMessage['providerReplay'] {
  const data: ResponsesReplayData = { items: structuredClone(items) };
  return { provider: responsesProviderId, data };
}

/**
 * The input items that replay `message`, or `undefined` when it carries no usable replay data (not
 * from this adapter, or its calls no longer match the message's own, so the message wins).
 */
export function replayItems(message: AssistantMessage): ResponseInputItem[] | undefined {
  const replay = message.providerReplay;
  if (replay?.provider !== responsesProviderId || !isReplayData(replay.data)) return undefined;
  const items = replay.data.items;
  const replayedCallIds = items.flatMap((item) => (item.type === 'function_call' ? [item.call_id] : []));
  const messageCallIds = message.content.flatMap((part) => (part.type === 'tool-call' ? [part.id] : []));
  if (replayedCallIds.join('\u0000') !== messageCallIds.join('\u0000')) return undefined;

  const keepIds = items.some(isReplayableReasoning);
  const result: ResponseInputItem[] = [];
  for (const item of items) {
    if (item.type === 'reasoning') {
      if (isReplayableReasoning(item)) result.push(item);
    } else if (keepIds) {
      result.push(item as ResponseInputItem);
    } else if (item.type === 'function_call') {
      result.push({ type: 'function_call', call_id: item.call_id, name: item.name, arguments: item.arguments });
    } else if (item.type === 'tool_search_call') {
      // Run by OpenAI, never by the host: sent back so the functions it loaded stay loaded.
      const replayed: ResponseInputItem = { type: 'tool_search_call', arguments: item.arguments };
      if (item.call_id !== null) replayed.call_id = item.call_id;
      replayed.execution = item.execution;
      result.push(replayed);
    } else if (item.type === 'tool_search_output') {
      const replayed: ResponseInputItem = { type: 'tool_search_output', tools: item.tools, execution: item.execution };
      if (item.call_id !== null) replayed.call_id = item.call_id;
      result.push(replayed);
    } else if (item.type === 'message') {
      const text = item.content.map((part) => (part.type === 'output_text' ? part.text : part.refusal)).join('');
      const replayed: ResponseInputItem = { type: 'message', role: 'assistant', content: text };
      if (item.phase) replayed.phase = item.phase;
      result.push(replayed);
    }
    // Other item kinds (hosted tools) are not offered by this host; without ids they cannot be replayed.
  }
  return result;
}

function isReplayableReasoning(item: ResponseOutputItem): boolean {
  return item.type === 'reasoning' && typeof item.encrypted_content === 'string' && item.encrypted_content !== '';
}

function isReplayData(data: unknown): data is ResponsesReplayData {
  return typeof data === 'object' && data !== null && Array.isArray((data as { items?: unknown }).items);
}
