/**
 * The Anthropic Messages wire of the mock LLM server: `POST /v1/messages`, JSON or SSE, errors in
 * Anthropic's error shape — exactly what `@anthropic-ai/sdk` parses, so hosts are tested through
 * the official client. Streams follow the event sequence the SDK accepts (see PROVIDERS.md):
 * every frame names its event, a `ping` arrives mid-stream, text and tool input come in fragments.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ConversationView, ScriptAnswer } from '../../script-types.js';
import { splitIntoChunks } from '../../split-into-chunks.js';
import { sendJson } from '../http-io.js';
import { startSse, writeSseFrame } from '../sse.js';
import type { MockWire } from '../wire.js';
import { readAnthropicRequest } from './anthropic-read-request.js';

type TurnAnswer = ScriptAnswer & { kind: 'turn' };

/** Anthropic's error `type` for each HTTP status it uses. */
const errorTypes: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  504: 'timeout_error',
  529: 'overloaded_error',
};

export const anthropicWire: MockWire = {
  name: 'anthropic',
  paths: ['POST /v1/messages'],
  matches: (method, path) => method === 'POST' && (path === '/v1/messages' || path === '/v1/messages/'),
  checkAuth(req: IncomingMessage) {
    const apiKey = req.headers['x-api-key'];
    const authorization = req.headers.authorization;
    if (typeof apiKey === 'string' && apiKey !== '') return undefined;
    if (typeof authorization === 'string' && /^Bearer\s+\S+/i.test(authorization)) return undefined;
    return 'Missing credentials: send an `x-api-key` header or `authorization: Bearer <key>` (the mock accepts any key).';
  },
  readRequest: (body) => readAnthropicRequest(body),
  writeAnswer(res, answer, view) {
    if (view.stream) writeStream(res, answer, view);
    else sendJson(res, 200, toMessage(answer, view), { 'request-id': requestId() });
  },
  writeError(res, status, message) {
    const type = errorTypes[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
    sendJson(
      res,
      status,
      { type: 'error', error: { type, message }, request_id: requestId() },
      {
        'request-id': requestId(),
      },
    );
  },
};

function toMessage(answer: TurnAnswer, view: ConversationView): Record<string, unknown> {
  const content: Record<string, unknown>[] = toolSearchBlocks(answer, view);
  if (answer.text !== undefined && answer.text !== '') content.push({ type: 'text', text: answer.text });
  for (const call of answer.toolCalls) {
    content.push({ type: 'tool_use', id: call.id, name: call.name, input: call.arguments });
  }
  return {
    id: messageId(),
    type: 'message',
    role: 'assistant',
    model: view.model,
    content,
    stop_reason: stopReason(answer),
    stop_sequence: null,
    usage: { ...startUsage(view), output_tokens: outputTokens(answer) },
  };
}

function writeStream(res: ServerResponse, answer: TurnAnswer, view: ConversationView): void {
  startSse(res, { 'request-id': requestId() });
  const send = (type: string, fields: Record<string, unknown> = {}) => writeSseFrame(res, { type, ...fields }, type);
  send('message_start', {
    message: {
      id: messageId(),
      type: 'message',
      role: 'assistant',
      model: view.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...startUsage(view), output_tokens: 1 },
    },
  });
  send('ping');
  let index = 0;
  // The server-side search first: its call's input streams like a tool's, its result arrives whole.
  for (const block of toolSearchBlocks(answer, view)) {
    if (block.type === 'server_tool_use') {
      send('content_block_start', { index, content_block: { ...block, input: {} } });
      for (const fragment of splitIntoChunks(JSON.stringify(block.input))) {
        send('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: fragment } });
      }
    } else send('content_block_start', { index, content_block: block });
    send('content_block_stop', { index });
    index++;
  }
  let pinged = false;
  const pingOnce = () => {
    if (pinged) return;
    pinged = true;
    send('ping'); // a second ping inside a block: accumulators must skip it anywhere
  };
  if (answer.text !== undefined && answer.text !== '') {
    send('content_block_start', { index, content_block: { type: 'text', text: '' } });
    for (const chunk of splitIntoChunks(answer.text)) {
      send('content_block_delta', { index, delta: { type: 'text_delta', text: chunk } });
      pingOnce();
    }
    send('content_block_stop', { index });
    index++;
  }
  for (const call of answer.toolCalls) {
    send('content_block_start', {
      index,
      content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} },
    });
    const json = Object.keys(call.arguments).length === 0 ? '' : JSON.stringify(call.arguments);
    const fragments = json === '' ? [''] : splitIntoChunks(json);
    for (const fragment of fragments) {
      send('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: fragment } });
      pingOnce();
    }
    send('content_block_stop', { index });
    index++;
  }
  send('message_delta', {
    delta: { stop_reason: stopReason(answer), stop_sequence: null },
    usage: { output_tokens: outputTokens(answer) },
  });
  send('message_stop');
  res.end();
}

/** The blocks of the server-side tool search the answer ran, as the API sends them: the call, then its result. */
function toolSearchBlocks(answer: TurnAnswer, view: ConversationView): Record<string, unknown>[] {
  if (answer.toolSearch === undefined) return [];
  const id = `srvtoolu_mock_${randomUUID().replaceAll('-', '').slice(0, 20)}`;
  const name = view.toolNames.find((tool) => tool.startsWith('tool_search_tool_')) ?? 'tool_search_tool_bm25';
  return [
    { type: 'server_tool_use', id, name, input: { query: answer.toolSearch.query } },
    {
      type: 'tool_search_tool_result',
      tool_use_id: id,
      content: {
        type: 'tool_search_tool_search_result',
        tool_references: answer.toolSearch.found.map((tool) => ({ type: 'tool_reference', tool_name: tool })),
      },
    },
  ];
}

function stopReason(answer: TurnAnswer): 'pause_turn' | 'tool_use' | 'end_turn' {
  if (answer.pauseTurn === true) return 'pause_turn';
  return answer.toolCalls.length > 0 ? 'tool_use' : 'end_turn';
}

/** Made-up but stable token counts: roughly four characters a token. */
function startUsage(view: ConversationView): Record<string, number> {
  const inputTokens = Math.ceil(view.firstUserText.length / 4) + 20 * view.toolNames.length + 40 * view.assistantTurns;
  return { input_tokens: Math.max(1, inputTokens), cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
}

function outputTokens(answer: TurnAnswer): number {
  const characters = (answer.text ?? '').length + JSON.stringify(answer.toolCalls).length;
  return Math.max(1, Math.ceil(characters / 4));
}

function messageId(): string {
  return `msg_mock_${randomUUID().replaceAll('-', '').slice(0, 24)}`;
}

function requestId(): string {
  return `req_mock_${randomUUID().replaceAll('-', '').slice(0, 24)}`;
}
