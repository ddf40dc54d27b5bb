/**
 * An LlmProvider driven by a script instead of a model: no keys, no network. Hosts (this one and
 * users' own) test their loop with it, and assert on `requests` — every request it received,
 * frozen as it was at the time of the call.
 */
import {
  type AssistantPart,
  type GenerateOptions,
  type LlmProvider,
  type ModelRequest,
  type ModelResponse,
  ProviderError,
} from '../providers/types.js';
import { answerFromScript } from './answer-from-script.js';
import { conversationViewFromModelRequest } from './conversation-view-from-model-request.js';
import type { Script } from './script-types.js';
import { splitIntoChunks } from './split-into-chunks.js';

export interface ScriptedProviderOptions {
  /** Model name reported by the provider and shown to the script. Default `scripted`. */
  model?: string;
  /**
   * Whether to keep a deep copy of every request in `requests` (default true, for tests to assert on). A long
   * conversation makes each request larger, so keeping them all grows memory with the square of its length: the
   * command line's `scripted:` model and the benchmarks keep none.
   */
  keepRequests?: boolean;
}

export interface ScriptedProvider extends LlmProvider {
  /** Every request received, deep-copied at the time of the call, in order (empty with `keepRequests: false`). */
  readonly requests: ModelRequest[];
}

/** Rough size of a token, for made-up but plausible usage numbers. */
const charactersPerToken = 4;

/** JSON length of each message and tool list seen: a conversation resends them all on every turn. */
const jsonLengths = new WeakMap<object, number>();

function jsonLength(value: object): number {
  let length = jsonLengths.get(value);
  if (length === undefined) {
    length = JSON.stringify(value).length;
    jsonLengths.set(value, length);
  }
  return length;
}

/** `JSON.stringify(request).length`, with each message and the tool list serialised once however often sent. */
function requestCharacters(request: ModelRequest): number {
  const { messages, tools } = request;
  const commas = Math.max(0, messages.length - 1) + Math.max(0, tools.length - 1);
  let characters = JSON.stringify({ ...request, messages: [], tools: [] }).length + commas;
  for (const message of messages) characters += jsonLength(message);
  // The empty list's own brackets are already counted above.
  return characters + (tools.length === 0 ? 0 : jsonLength(tools) - 2 - Math.max(0, tools.length - 1));
}

export function createScriptedProvider(script: Script, options: ScriptedProviderOptions = {}): ScriptedProvider {
  const model = options.model ?? 'scripted';
  const requests: ModelRequest[] = [];
  const keepRequests = options.keepRequests ?? true;
  return {
    provider: 'scripted',
    model,
    requests,
    async generate(request: ModelRequest, generateOptions: GenerateOptions = {}): Promise<ModelResponse> {
      generateOptions.signal?.throwIfAborted();
      if (keepRequests) requests.push(structuredClone(request));
      // The loop only appends to its conversation, so a copy of the message list is the request as it stands.
      generateOptions.onProviderRequest?.({ ...request, messages: [...request.messages] });

      const stream = generateOptions.stream === true;
      const view = { ...conversationViewFromModelRequest(request, { model, stream }), canPauseTurn: true };
      const answer = answerFromScript(script, view);
      if (answer.kind === 'error') {
        throw new ProviderError(`Scripted provider error ${answer.status}: ${answer.message}`, {
          provider: 'scripted',
          status: answer.status,
          retryable: answer.status === 429 || answer.status >= 500,
        });
      }

      const content: AssistantPart[] = [];
      if (answer.text !== undefined && answer.text !== '') {
        if (stream) {
          for (const chunk of splitIntoChunks(answer.text)) {
            generateOptions.signal?.throwIfAborted();
            generateOptions.onTextDelta?.(chunk);
          }
        }
        content.push({ type: 'text', text: answer.text });
      }
      for (const [index, call] of answer.toolCalls.entries()) {
        const argumentsText = JSON.stringify(call.arguments);
        // Streamed in pieces, as a model streams a call's arguments.
        if (stream) {
          for (const piece of splitIntoChunks(argumentsText)) {
            generateOptions.signal?.throwIfAborted();
            generateOptions.onToolCallDelta?.({ index, name: call.name, argumentsDelta: piece });
          }
        }
        content.push({
          type: 'tool-call',
          id: call.id,
          name: call.name,
          argumentsText,
        });
      }
      const outputCharacters = content.reduce(
        (total, part) => total + (part.type === 'text' ? part.text.length : part.argumentsText.length),
        0,
      );
      return {
        message: { role: 'assistant', content },
        stopReason: answer.pauseTurn === true ? 'paused' : answer.toolCalls.length > 0 ? 'tool-calls' : 'end',
        usage: {
          inputTokens: Math.ceil(requestCharacters(request) / charactersPerToken),
          outputTokens: Math.ceil(outputCharacters / charactersPerToken),
        },
      };
    },
  };
}
