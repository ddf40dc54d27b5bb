/**
 * Compaction: the older turns of a transcript become one summary the model writes, and the last turns stay as they
 * are, object for object, so their bytes (like the system prompt's and the tools') do not change and a provider's
 * prompt cache keeps serving them. Tool results of the older turns that are longer than a small budget are stored in
 * full and named in the summary: the model reads them back with the host's stored-result tool instead of carrying
 * them in every request.
 */
import { estimateTokens } from '../content/linear-token-estimate.js';
import { READ_STORED_RESULT_TOOL_NAME } from '../content/read-stored-result-tool.js';
import type { LlmProvider, Message, Usage } from '../providers/types.js';
import { estimateMessagesTokens } from './estimate-message-tokens.js';

/** The first words of a summary message: how a summary is told apart from the user's own words. */
const SUMMARY_HEADING = '[Summary of the earlier conversation, written when it was compacted]';
const SUMMARY_ACKNOWLEDGEMENT = 'Understood. I will continue from this summary.';
const SUMMARY_INSTRUCTION =
  'Summarise the conversation below for yourself, to continue it without the full text: the user’s goals and ' +
  'requests, decisions made, facts learned from tools (names, numbers, paths, ids), what is done and what is still ' +
  'open. Keep every stored result id (res_…) that may be needed again. Answer with the summary only.';
const SUMMARY_SYSTEM = 'You write faithful, compact summaries of conversations between a user, an assistant and tools.';

interface CompactionPlan {
  /** Index of the first kept message (a user message: turns are never split). */
  keepFrom: number;
}

/**
 * Where to cut: keep the newest whole turns that fit in `keepTokens` (always the last one), summarise the rest.
 * Undefined when there is nothing older to summarise than an earlier summary.
 */
export function planCompaction(messages: readonly Message[], keepTokens: number): CompactionPlan | undefined {
  const turnStarts = messages.flatMap((message, index) =>
    message.role === 'user' && !isSummary(message) ? [index] : [],
  );
  if (turnStarts.length === 0) return undefined;
  let keepFrom = turnStarts.at(-1)!;
  for (let turn = turnStarts.length - 2; turn >= 0; turn -= 1) {
    const start = turnStarts[turn]!;
    if (estimateMessagesTokens(messages.slice(start)) > keepTokens) break;
    keepFrom = start;
  }
  const older = messages.slice(0, keepFrom);
  if (older.length === 0 || older.every((message) => isSummary(message) || message.role === 'assistant'))
    return undefined;
  return { keepFrom };
}

export function isSummary(message: Message): boolean {
  return (
    message.role === 'user' &&
    message.content[0]?.type === 'text' &&
    message.content[0].text.startsWith(SUMMARY_HEADING)
  );
}

interface SummariseOptions {
  provider: LlmProvider;
  /** The older messages (everything before the kept turns). */
  older: readonly Message[];
  /** Longest the summary request may be, in estimated tokens. */
  maxInputTokens: number;
  /** Tool results over this many estimated tokens are stored and referred to. */
  resultBudgetTokens: number;
  storeResult: (text: string) => Promise<string>;
  signal?: AbortSignal;
}

interface Summary {
  /** The messages that stand for the older turns: the summary (user) and its acknowledgement (assistant). */
  messages: Message[];
  usage?: Usage;
}

export async function summarise(options: SummariseOptions): Promise<Summary> {
  const references: string[] = [];
  const lines: string[] = [];
  for (const message of options.older) {
    switch (message.role) {
      case 'user':
        for (const part of message.content)
          lines.push(part.type === 'text' ? `User: ${part.text}` : `User: [an image, ${part.mimeType}]`);
        break;
      case 'assistant':
        for (const part of message.content) {
          lines.push(
            part.type === 'text'
              ? `Assistant: ${part.text}`
              : `Assistant called ${part.name} with ${part.argumentsText}`,
          );
        }
        break;
      case 'tool':
        for (const result of message.results) {
          const text = result.content
            .map((part) => (part.type === 'text' ? part.text : `[an image, ${part.mimeType}]`))
            .join('\n');
          const label = `${result.toolName}${result.isError ? ' (failed)' : ''}`;
          if (estimateTokens(text) <= options.resultBudgetTokens) {
            lines.push(`Result of ${label}: ${text}`);
            continue;
          }
          const id = await options.storeResult(text);
          references.push(`- ${id}: result of ${label}, ${text.length} characters`);
          lines.push(
            `Result of ${label}: stored as ${id} (${text.length} characters); it begins: ${text.slice(0, 400)}`,
          );
        }
        break;
    }
  }
  const transcript = keepNewestWithin(lines, options.maxInputTokens - estimateTokens(SUMMARY_INSTRUCTION) - 200);
  const response = await options.provider.generate(
    {
      system: SUMMARY_SYSTEM,
      messages: [{ role: 'user', content: [{ type: 'text', text: `${SUMMARY_INSTRUCTION}\n\n${transcript}` }] }],
      tools: [],
    },
    { ...(options.signal ? { signal: options.signal } : {}) },
  );
  const summaryText = response.message.content
    .filter((part) => part.type === 'text')
    .map((part) => part.text)
    .join('')
    .trim();
  const stored =
    references.length === 0
      ? ''
      : `\n\nEarlier tool results kept in full; read them with ${READ_STORED_RESULT_TOOL_NAME} (id, offset, length):\n${references.join('\n')}`;
  return {
    messages: [
      { role: 'user', content: [{ type: 'text', text: `${SUMMARY_HEADING}\n\n${summaryText}${stored}` }] },
      { role: 'assistant', content: [{ type: 'text', text: SUMMARY_ACKNOWLEDGEMENT }] },
    ],
    ...(response.usage ? { usage: response.usage } : {}),
  };
}

/** The newest lines that fit in `maxTokens`; what is left out is said. */
function keepNewestWithin(lines: readonly string[], maxTokens: number): string {
  const kept: string[] = [];
  let tokens = 0;
  for (let index = lines.length - 1; index >= 0; index -= 1) {
    const cost = estimateTokens(lines[index]!) + 1;
    if (tokens + cost > maxTokens) {
      kept.unshift('[the earliest part of the conversation is left out: it did not fit]');
      break;
    }
    kept.unshift(lines[index]!);
    tokens += cost;
  }
  return kept.join('\n');
}
