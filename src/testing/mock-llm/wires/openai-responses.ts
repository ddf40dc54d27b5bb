/**
 * The OpenAI Responses wire of the mock LLM server: `POST /v1/responses` (also `/responses`), JSON
 * or SSE, errors in OpenAI's shape. A stream names every event in an `event:` line, numbers each with
 * `sequence_number`, starts with `response.created` and ends with `response.completed` carrying the
 * whole response; a message's text and a call's arguments arrive in several deltas.
 */
import type { ServerResponse } from 'node:http';
import type { ScriptAnswer } from '../../script-types.js';
import { splitIntoChunks } from '../../split-into-chunks.js';
import { sendJson } from '../http-io.js';
import { startSse, writeSseFrame } from '../sse.js';
import type { MockWire } from '../wire.js';
import { type OpenAiResponsesView, readOpenAiResponsesRequest } from './openai-responses-read-request.js';
import { checkBearerAuth, madeUpTokenCount, requestId, shortId, writeOpenAiError } from './openai-wire-common.js';

type TurnAnswer = ScriptAnswer & { kind: 'turn' };
type Item = Record<string, unknown>;

const pathPattern = /^(?:\/v1)?\/responses\/?$/;

export const openAiResponsesWire: MockWire = {
  name: 'openai-responses',
  paths: ['POST /v1/responses', 'POST /responses'],
  matches: (method, path) => method === 'POST' && pathPattern.test(path),
  checkAuth: checkBearerAuth,
  readRequest: (body) => readOpenAiResponsesRequest(body),
  writeAnswer(res, answer, view) {
    const responsesView = view as OpenAiResponsesView;
    if (view.stream) writeStream(res, answer, responsesView);
    else sendJson(res, 200, toResponse(answer, responsesView, 'completed'), { 'x-request-id': requestId() });
  },
  writeError: writeOpenAiError,
};

/**
 * The items of a turn: the hosted tool search's call and output when it searched, one assistant message when there
 * is text, then one function_call per call.
 */
function outputItems(answer: TurnAnswer, view: OpenAiResponsesView): Item[] {
  const items: Item[] = [];
  if (answer.toolSearch !== undefined) {
    const found = new Set(answer.toolSearch.found);
    const loaded = (view.deferredTools ?? []).filter((tool) => found.has(tool.name)).map((tool) => tool.definition);
    const callId = `call_search_mock${shortId()}`;
    const common = { call_id: callId, execution: 'server', status: 'completed' };
    items.push({
      id: `tsc_mock${shortId()}`,
      type: 'tool_search_call',
      arguments: { query: answer.toolSearch.query },
      ...common,
    });
    items.push({ id: `tso_mock${shortId()}`, type: 'tool_search_output', tools: loaded, ...common });
  }
  if (answer.text !== undefined && answer.text !== '') {
    items.push({
      id: `msg_mock${shortId()}`,
      type: 'message',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: answer.text, annotations: [], logprobs: [] }],
    });
  }
  for (const call of answer.toolCalls) {
    items.push({
      id: `fc_mock${shortId()}`,
      type: 'function_call',
      status: 'completed',
      call_id: call.id,
      name: call.name,
      arguments: JSON.stringify(call.arguments),
    });
  }
  return items;
}

function toResponse(
  answer: TurnAnswer,
  view: OpenAiResponsesView,
  status: 'in_progress' | 'completed',
  output: Item[] = status === 'completed' ? outputItems(answer, view) : [],
  id = `resp_mock${shortId()}`,
): Record<string, unknown> {
  const outputTokens = madeUpTokenCount((answer.text ?? '') + JSON.stringify(answer.toolCalls));
  return {
    id,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status,
    error: null,
    incomplete_details: null,
    instructions: view.instructions,
    metadata: {},
    model: view.model,
    output,
    parallel_tool_calls: true,
    temperature: 1,
    tool_choice: 'auto',
    tools: [],
    top_p: 1,
    store: false,
    usage:
      status === 'completed'
        ? {
            input_tokens: view.promptTokens,
            input_tokens_details: { cached_tokens: 0 },
            output_tokens: outputTokens,
            output_tokens_details: { reasoning_tokens: 0 },
            total_tokens: view.promptTokens + outputTokens,
          }
        : null,
  };
}

function writeStream(res: ServerResponse, answer: TurnAnswer, view: OpenAiResponsesView): void {
  startSse(res, { 'x-request-id': requestId() });
  let sequence = 0;
  const send = (type: string, fields: Record<string, unknown>) =>
    writeSseFrame(res, { type, sequence_number: sequence++, ...fields }, type);
  const responseId = `resp_mock${shortId()}`;
  send('response.created', { response: toResponse(answer, view, 'in_progress', [], responseId) });
  send('response.in_progress', { response: toResponse(answer, view, 'in_progress', [], responseId) });
  const items = outputItems(answer, view);
  for (const [outputIndex, item] of items.entries()) {
    const itemId = String(item.id);
    if (item.type === 'message') {
      const text = answer.text ?? '';
      send('response.output_item.added', {
        output_index: outputIndex,
        item: { ...item, status: 'in_progress', content: [] },
      });
      const part = { type: 'output_text', text: '', annotations: [] };
      send('response.content_part.added', { item_id: itemId, output_index: outputIndex, content_index: 0, part });
      for (const delta of splitIntoChunks(text)) {
        send('response.output_text.delta', {
          item_id: itemId,
          output_index: outputIndex,
          content_index: 0,
          delta,
          logprobs: [],
        });
      }
      send('response.output_text.done', {
        item_id: itemId,
        output_index: outputIndex,
        content_index: 0,
        text,
        logprobs: [],
      });
      send('response.content_part.done', {
        item_id: itemId,
        output_index: outputIndex,
        content_index: 0,
        part: { ...part, text },
      });
    } else if (item.type === 'tool_search_call' || item.type === 'tool_search_output') {
      // Run on the provider's side: each item arrives whole.
      send('response.output_item.added', { output_index: outputIndex, item });
    } else {
      const argumentsText = String(item.arguments);
      send('response.output_item.added', {
        output_index: outputIndex,
        item: { ...item, status: 'in_progress', arguments: '' },
      });
      for (const delta of splitIntoChunks(argumentsText)) {
        send('response.function_call_arguments.delta', { item_id: itemId, output_index: outputIndex, delta });
      }
      send('response.function_call_arguments.done', {
        item_id: itemId,
        output_index: outputIndex,
        name: item.name,
        arguments: argumentsText,
      });
    }
    send('response.output_item.done', { output_index: outputIndex, item });
  }
  send('response.completed', { response: toResponse(answer, view, 'completed', items, responseId) });
  res.end();
}
