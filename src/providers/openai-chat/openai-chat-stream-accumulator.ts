/**
 * Builds a neutral response from the raw chunks of a streamed Chat Completion
 * (`create({ stream: true })`), reporting text as it arrives.
 *
 * Written here rather than using the SDK's `.stream()` helper, which throws on what local servers
 * really send: calls without `id` or `type`, a call whole in one chunk, no `index`, arguments as an
 * object, no `[DONE]`, a usage chunk with `choices: []`, and `finish_reason: 'stop'` after calls.
 */
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { AssistantPart, ModelResponse, ToolCallDelta } from '../types.js';
import { argumentsAsText, callIdGiver, fromOpenAiChatUsage } from './from-openai-chat-response.js';
import { mapOpenAiChatFinishReason } from './map-openai-chat-finish-reason.js';
import { type ToolArgumentShapes, withServerArguments } from './openai-tool-arguments.js';

/** A tool-call delta as any server may send it. */
interface LooseCallDelta {
  index?: number | null;
  id?: string | null;
  type?: string | null;
  function?: { name?: string | null; arguments?: unknown } | null;
}

interface CallSlot {
  index: number | undefined;
  id: string | undefined;
  name: string;
  argumentsText: string;
  /** Its place among the answer's calls, given as it becomes a call. */
  position?: number;
}

/** A slot with neither name nor arguments is no call: the answer leaves it out. */
function isCall(slot: CallSlot): boolean {
  return slot.name !== '' || slot.argumentsText !== '';
}

interface OpenAiChatStreamAccumulatorOptions {
  onTextDelta?: (text: string) => void;
  onToolCallDelta?: (delta: ToolCallDelta) => void;
  /** The request's tool shapes: calls' arguments are put into the shape their servers declared. */
  toolShapes?: ToolArgumentShapes;
}

export class OpenAiChatStreamAccumulator {
  private text = '';
  private refusal = '';
  /** Every slot a delta opened, to find a delta's slot in. */
  private readonly slots: CallSlot[] = [];
  /**
   * The slots that are calls, in the order they became calls: the answer's calls in that order, each streamed at its
   * place here. A slot that stays empty is no call; one that becomes a call only after a later slot did comes after
   * that call in the answer too, whose pieces were already streamed at the place before it.
   */
  private readonly calls: CallSlot[] = [];
  private finishReason: string | null | undefined;
  private usage: ChatCompletionChunk['usage'];

  constructor(private readonly options: OpenAiChatStreamAccumulatorOptions = {}) {}

  push(chunk: ChatCompletionChunk): void {
    if (chunk.usage) this.usage = chunk.usage;
    // A usage-only chunk has `choices: []` (some servers send null); only the first choice is asked for.
    const choice = (chunk.choices ?? []).find((candidate) => (candidate.index ?? 0) === 0);
    if (choice === undefined) return;
    const delta = choice.delta ?? {};
    if (typeof delta.content === 'string' && delta.content !== '') {
      this.text += delta.content;
      this.options.onTextDelta?.(delta.content);
    }
    if (typeof delta.refusal === 'string' && delta.refusal !== '') {
      this.refusal += delta.refusal;
      this.options.onTextDelta?.(delta.refusal);
    }
    for (const callDelta of (delta.tool_calls ?? []) as LooseCallDelta[]) this.addCallDelta(callDelta);
    if (choice.finish_reason) this.finishReason = choice.finish_reason;
  }

  finish(): ModelResponse {
    const content: AssistantPart[] = [];
    if (this.text !== '') content.push({ type: 'text', text: this.text });
    if (this.refusal !== '') content.push({ type: 'text', text: this.refusal });
    const callId = callIdGiver();
    for (const [position, call] of this.calls.entries()) {
      const id = callId(call.id, position);
      content.push({ type: 'tool-call', id, name: call.name, argumentsText: call.argumentsText });
    }
    const hasToolCalls = content.some((part) => part.type === 'tool-call');
    const refused = this.refusal !== '' && !hasToolCalls;
    const response: ModelResponse = {
      message: { role: 'assistant', content: withServerArguments(content, this.options.toolShapes) },
      stopReason: refused ? 'refusal' : mapOpenAiChatFinishReason(this.finishReason, hasToolCalls),
    };
    const usage = fromOpenAiChatUsage(this.usage);
    if (usage !== undefined) response.usage = usage;
    return response;
  }

  private addCallDelta(delta: LooseCallDelta): void {
    const slot = this.slotFor(delta);
    if (slot.id === undefined && typeof delta.id === 'string' && delta.id !== '') slot.id = delta.id;
    const name = delta.function?.name;
    // Some servers repeat the name in every chunk: the first one stands.
    const named = slot.name === '' && typeof name === 'string' && name !== '';
    if (named) slot.name = name;
    const fragment = delta.function?.arguments;
    if (typeof fragment === 'string') slot.argumentsText += fragment;
    else if (fragment !== undefined && fragment !== null && slot.argumentsText === '') {
      slot.argumentsText = argumentsAsText(fragment);
    }
    if (slot.position === undefined && isCall(slot)) slot.position = this.calls.push(slot) - 1;
    if (slot.name === '' || slot.position === undefined) return;
    // Pieces that came before the name could not be streamed as the call's: they go with it.
    const piece = named ? slot.argumentsText : typeof fragment === 'string' ? fragment : '';
    if (piece !== '') this.options.onToolCallDelta?.({ index: slot.position, name: slot.name, argumentsDelta: piece });
  }

  /**
   * The call a delta belongs to: by `index` (unless it brings a different id: some servers number
   * every call 0); without an index, by `id`; otherwise a new name opens a new call.
   */
  private slotFor(delta: LooseCallDelta): CallSlot {
    const id = typeof delta.id === 'string' && delta.id !== '' ? delta.id : undefined;
    if (typeof delta.index === 'number') {
      const found = this.slots.findLast((slot) => slot.index === delta.index);
      const isOtherCall = found?.id !== undefined && id !== undefined && found.id !== id;
      return found === undefined || isOtherCall ? this.openSlot(delta.index) : found;
    }
    if (id !== undefined) return this.slots.find((slot) => slot.id === id) ?? this.openSlot(undefined);
    const last = this.slots[this.slots.length - 1];
    const opensNewCall = typeof delta.function?.name === 'string' && delta.function.name !== '' && last?.name !== '';
    return last === undefined || opensNewCall ? this.openSlot(undefined) : last;
  }

  private openSlot(index: number | undefined): CallSlot {
    const slot: CallSlot = { index, id: undefined, name: '', argumentsText: '' };
    this.slots.push(slot);
    return slot;
  }
}
