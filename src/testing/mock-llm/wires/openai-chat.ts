/**
 * The OpenAI Chat Completions wire of the mock LLM server: `POST /v1/chat/completions` (also
 * `/chat/completions`, for base URLs without `/v1`), JSON or SSE, errors in OpenAI's shape — what
 * the `openai` SDK parses, for OpenAI and for the local servers that copy its protocol.
 *
 * A stream follows OpenAI's sequence (see PROVIDERS.md): a role delta, text in several deltas, per
 * call an opening chunk (id, type, name) then argument fragments, the finish reason, a usage chunk
 * with `choices: []` when asked for, `data: [DONE]`. A `/quirks/<list>` path prefix switches on what
 * local servers do instead (see `openAiChatQuirks`).
 */
import type { ServerResponse } from 'node:http';
import type { ScriptAnswer } from '../../script-types.js';
import { splitIntoChunks } from '../../split-into-chunks.js';
import { sendJson } from '../http-io.js';
import { startSse, writeSseFrame } from '../sse.js';
import type { MockWire } from '../wire.js';
import {
  matchesOpenAiChatPath,
  type OpenAiChatView,
  openAiChatQuirks,
  readOpenAiChatRequest,
} from './openai-chat-read-request.js';
import { checkBearerAuth, madeUpTokenCount, requestId, shortId, writeOpenAiError } from './openai-wire-common.js';

type TurnAnswer = ScriptAnswer & { kind: 'turn' };
type Call = TurnAnswer['toolCalls'][number];

export const openAiChatWire: MockWire = {
  name: 'openai-chat',
  paths: [
    'POST /v1/chat/completions',
    'POST /chat/completions',
    `POST /quirks/<${openAiChatQuirks.join('|')},…>/v1/chat/completions`,
  ],
  matches: (method, path) => method === 'POST' && matchesOpenAiChatPath(path),
  checkAuth: checkBearerAuth,
  readRequest: (body, path) => readOpenAiChatRequest(body, path),
  writeAnswer(res, answer, view) {
    const chatView = view as OpenAiChatView;
    if (view.stream) writeStream(res, answer, chatView);
    else sendJson(res, 200, toCompletion(answer, chatView), { 'x-request-id': requestId() });
  },
  writeError: writeOpenAiError,
};

function toCompletion(answer: TurnAnswer, view: OpenAiChatView): Record<string, unknown> {
  const text = answer.text ?? '';
  const message: Record<string, unknown> = {
    role: 'assistant',
    content: text === '' && answer.toolCalls.length > 0 ? null : text,
    refusal: null,
    annotations: [],
  };
  if (answer.toolCalls.length > 0) message.tool_calls = answer.toolCalls.map((call) => wholeCall(call, view));
  return {
    id: completionId(),
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: view.model,
    system_fingerprint: null,
    choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason(answer, view) }],
    usage: usage(answer, view),
  };
}

function writeStream(res: ServerResponse, answer: TurnAnswer, view: OpenAiChatView): void {
  startSse(res, { 'x-request-id': requestId() });
  const id = completionId();
  const created = Math.floor(Date.now() / 1000);
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => {
    const frame: Record<string, unknown> = {
      id,
      object: 'chat.completion.chunk',
      created,
      model: view.model,
      system_fingerprint: null,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    };
    if (view.includeUsage) frame.usage = null;
    writeSseFrame(res, frame);
  };
  chunk({ role: 'assistant', content: '', refusal: null });
  for (const piece of splitIntoChunks(answer.text ?? '')) chunk({ content: piece });
  const emptySlot = view.quirks.has('empty-slot') && answer.toolCalls.length > 0;
  const lateFirstCall = view.quirks.has('late-first-call') && answer.toolCalls.length > 0;
  if (emptySlot || lateFirstCall) chunk({ tool_calls: [{ ...callIndex(0, view), function: { arguments: '' } }] });
  const numbered = answer.toolCalls.map((call, position) => {
    const index = view.quirks.has('index-zero') ? 0 : emptySlot ? position + 1 : position;
    return { call, index };
  });
  // The first call fills the slot opened for it once the others have streamed.
  if (lateFirstCall) numbered.push(...numbered.splice(0, 1));
  for (const { call, index } of numbered) {
    // A server that sends arguments as an object (older Ollama) sends the call whole.
    if (view.quirks.has('whole-calls') || view.quirks.has('arguments-object')) {
      chunk({ tool_calls: [{ ...callIndex(index, view), ...wholeCall(call, view) }] });
      continue;
    }
    const opening = { ...callIndex(index, view), ...wholeCall(call, view) };
    const fragments = splitIntoChunks(JSON.stringify(call.arguments));
    if (view.quirks.has('name-after-arguments')) {
      opening.function = { arguments: fragments.shift() ?? '' };
      chunk({ tool_calls: [opening] });
      chunk({ tool_calls: [{ ...callIndex(index, view), function: { name: call.name, arguments: '' } }] });
    } else {
      opening.function = { name: call.name, arguments: '' };
      chunk({ tool_calls: [opening] });
    }
    for (const fragment of fragments) {
      chunk({ tool_calls: [{ ...callIndex(index, view), function: { arguments: fragment } }] });
    }
  }
  chunk({}, finishReason(answer, view));
  if (view.includeUsage) {
    writeSseFrame(res, {
      id,
      object: 'chat.completion.chunk',
      created,
      model: view.model,
      system_fingerprint: null,
      choices: [],
      usage: usage(answer, view),
    });
  }
  if (!view.quirks.has('no-done')) writeSseFrame(res, '[DONE]');
  res.end();
}

/** A call with every field the quirks leave in: id, type, name and the whole arguments. */
function wholeCall(call: Call, view: OpenAiChatView): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  if (!view.quirks.has('no-ids')) result.id = call.id;
  if (!view.quirks.has('no-type')) result.type = 'function';
  const argumentsValue = view.quirks.has('arguments-object') ? call.arguments : JSON.stringify(call.arguments);
  result.function = { name: call.name, arguments: argumentsValue };
  return result;
}

function callIndex(index: number, view: OpenAiChatView): Record<string, unknown> {
  return view.quirks.has('no-index') ? {} : { index };
}

function finishReason(answer: TurnAnswer, view: OpenAiChatView): string {
  return answer.toolCalls.length > 0 && !view.quirks.has('stop-finish') ? 'tool_calls' : 'stop';
}

function usage(answer: TurnAnswer, view: OpenAiChatView): Record<string, unknown> {
  const completionTokens = madeUpTokenCount((answer.text ?? '') + JSON.stringify(answer.toolCalls));
  return {
    prompt_tokens: view.promptTokens,
    completion_tokens: completionTokens,
    total_tokens: view.promptTokens + completionTokens,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0 },
  };
}

function completionId(): string {
  return `chatcmpl-mock${shortId()}`;
}
