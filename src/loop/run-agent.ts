/**
 * The agent loop: ask the model, run the tools it asks for, give it the results, until it stops.
 *
 * Wiring only: calling the model, executing calls and every per-call duty live in their own files.
 * A tool failure is a result for the model, never the end of the run; what ends a run is the
 * model stopping, the turn bound, the caller's abort, or a provider error.
 */

import { setMaxListeners } from 'node:events';
import {
  type LlmProvider,
  type Message,
  type ModelResponse,
  ProviderError,
  type ToolCallPart,
  type ToolDefinition,
  type Usage,
} from '../providers/types.js';
import { mapBounded } from './bounded-parallel.js';
import type { AgentEvent, RunStopReason } from './events.js';
import { linkSignals } from './linked-signal.js';
import type { ExecuteToolCall } from './tool-call-types.js';

/** Arguments streamed to interfaces per call, at most; a view gets the whole input when the call starts anyway. */
const MAX_STREAMED_ARGUMENT_CHARS = 64 * 1024;

/** Model turns in one run before the host stops a model that keeps calling tools. */
export const DEFAULT_MAX_TURNS = 20;
/** Tool calls of one turn that run at the same time; the rest wait for a free slot. */
export const DEFAULT_MAX_PARALLEL_CALLS = 8;
/**
 * Paused turns in a row the host continues (a provider's server tool ran long, e.g. Anthropic's `pause_turn`); one
 * more ends the run with an error, so a provider that keeps pausing cannot keep the run going. Continuations do not
 * count against `maxTurns`.
 */
export const MAX_PAUSED_TURN_CONTINUATIONS = 5;

export interface RunAgentOptions {
  runId: string;
  provider: LlmProvider;
  /** The tools offered for a turn, taken once at the start of each turn (the catalog changes only here). */
  tools: () => ToolDefinition[] | Promise<ToolDefinition[]>;
  executeToolCall: ExecuteToolCall;
  /** The conversation so far, ending with the user's message. The loop appends to it. */
  messages: Message[];
  system?: string;
  /** The most tokens the model may write in one response; the provider's default when absent. */
  maxOutputTokens?: number;
  maxTurns?: number;
  maxParallelCalls?: number;
  stream?: boolean;
  signal?: AbortSignal;
  emit: (event: AgentEvent) => void;
  /** Each message the loop adds to `messages`, once it is complete (a conversation saves it as it goes). */
  onMessage?: (message: Message) => void;
}

export interface RunResult {
  stopReason: RunStopReason;
  /** The model's final text (its last message's text parts). */
  text: string;
  turns: number;
  usage: Usage;
  messages: Message[];
  message?: string;
}

export async function runAgent(options: RunAgentOptions): Promise<RunResult> {
  // Every parallel call of a turn listens to the run's signal: one of the loop's own, without Node's limit of 10
  // listeners (past it Node warns of a leak on stderr), follows the caller's.
  const linked = linkSignals(options.signal === undefined ? [] : [options.signal]);
  setMaxListeners(0, linked.signal);
  try {
    return await runTurns(options, linked.signal);
  } finally {
    linked.dispose();
  }
}

async function runTurns(options: RunAgentOptions, signal: AbortSignal): Promise<RunResult> {
  const maxTurns = options.maxTurns ?? DEFAULT_MAX_TURNS;
  const maxParallel = options.maxParallelCalls ?? DEFAULT_MAX_PARALLEL_CALLS;
  const usage: Usage = { inputTokens: 0, outputTokens: 0 };
  const messages = options.messages;
  let text = '';
  let pausedInARow = 0;
  let pausedTurns = 0;

  const finish = (stopReason: RunStopReason, turns: number, message?: string): RunResult => {
    options.emit({ type: 'run-end', stopReason, text, turns, usage: { ...usage }, message });
    return { stopReason, text, turns, usage, messages, message };
  };

  for (let turn = 1; ; turn += 1) {
    if (signal.aborted) return finish('aborted', turn - 1, 'the run was aborted');
    options.emit({ type: 'turn-start', turn });
    let response: ModelResponse;
    const streamedArguments = new Map<number, number>();
    try {
      const tools = await options.tools();
      response = await options.provider.generate(
        {
          system: options.system,
          messages,
          tools,
          ...(options.maxOutputTokens === undefined ? {} : { maxOutputTokens: options.maxOutputTokens }),
        },
        {
          signal,
          stream: options.stream,
          onTextDelta: (delta) => options.emit({ type: 'text-delta', text: delta }),
          onToolCallDelta: (delta) => {
            // Past a bound the rest of the arguments arrive whole with the call.
            const sent = (streamedArguments.get(delta.index) ?? 0) + delta.argumentsDelta.length;
            streamedArguments.set(delta.index, sent);
            if (sent <= MAX_STREAMED_ARGUMENT_CHARS) options.emit({ type: 'tool-call-delta', turn, ...delta });
          },
          onProviderRequest: (body) =>
            options.emit({ type: 'provider-request', turn, provider: options.provider.provider, body }),
        },
      );
    } catch (error) {
      if (signal.aborted) return finish('aborted', turn, 'the run was aborted');
      throw error;
    }
    addUsage(usage, response.usage);
    messages.push(response.message);
    options.onMessage?.(response.message);
    options.emit({
      type: 'model-response',
      turn,
      message: response.message,
      stopReason: response.stopReason,
      usage: response.usage,
    });
    const calls = response.message.content.filter((part): part is ToolCallPart => part.type === 'tool-call');
    const turnText = response.message.content
      .filter((part) => part.type === 'text')
      .map((part) => part.text)
      .join('');
    if (turnText) text = turnText;

    if (response.stopReason === 'paused' && calls.length === 0) {
      // Nothing to run: the answer so far goes back as it came, and the provider continues its turn.
      options.emit({ type: 'turn-end', turn });
      pausedInARow += 1;
      pausedTurns += 1;
      if (pausedInARow > MAX_PAUSED_TURN_CONTINUATIONS) {
        throw new ProviderError(
          `${options.provider.provider} paused its turn ${pausedInARow} times in a row (a server-side tool kept running); the host continues a paused turn at most ${MAX_PAUSED_TURN_CONTINUATIONS} times in a row`,
          { provider: options.provider.provider, retryable: false },
        );
      }
      continue;
    }
    pausedInARow = 0;

    if (calls.length === 0) {
      options.emit({ type: 'turn-end', turn });
      const stop: RunStopReason =
        response.stopReason === 'max-tokens' ? 'max-tokens' : response.stopReason === 'refusal' ? 'refusal' : 'end';
      return finish(stop, turn);
    }

    const executed = await mapBounded(calls, maxParallel, async (call, index) => {
      options.emit({
        type: 'tool-call-start',
        turn,
        index,
        callId: call.id,
        name: call.name,
        argumentsText: call.argumentsText,
      });
      const started = performance.now();
      const outcome = await options.executeToolCall(call, {
        runId: options.runId,
        turn,
        callsInTurn: calls.length,
        signal,
        // What the call says of itself names its answer and place too: another call, of this answer or an earlier
        // one, may have its id.
        emit: (event) =>
          options.emit(
            (event.type === 'tool-call-request' || event.type === 'tool-call-warning') && event.callId === call.id
              ? { ...event, turn, index }
              : event,
          ),
      });
      options.emit({
        type: 'tool-call-end',
        turn,
        index,
        callId: call.id,
        name: call.name,
        server: outcome.server,
        outcome: outcome.outcome,
        result: outcome.result,
        rawResult: outcome.rawResult,
        serverExit: outcome.serverExit,
        durationMs: Math.round(performance.now() - started),
      });
      return outcome;
    });
    // Every call gets its result, in call order, in one message: providers reject a turn otherwise.
    const results: Message = { role: 'tool', results: executed.map((entry) => entry.result) };
    messages.push(results);
    options.onMessage?.(results);
    options.emit({ type: 'turn-end', turn });

    if (signal.aborted) return finish('aborted', turn, 'the run was aborted');
    if (turn - pausedTurns >= maxTurns) {
      return finish(
        'max-turns',
        turn,
        `stopped after ${maxTurns} turn${maxTurns === 1 ? '' : 's'}: the model kept calling tools (raise the bound with --max-turns)`,
      );
    }
  }
}

function addUsage(total: Usage, turn: Usage | undefined): void {
  if (!turn) return;
  total.inputTokens += turn.inputTokens;
  total.outputTokens += turn.outputTokens;
  if (turn.cacheReadTokens !== undefined) total.cacheReadTokens = (total.cacheReadTokens ?? 0) + turn.cacheReadTokens;
  if (turn.cacheWriteTokens !== undefined)
    total.cacheWriteTokens = (total.cacheWriteTokens ?? 0) + turn.cacheWriteTokens;
}
