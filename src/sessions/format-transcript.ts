/**
 * A saved session as text for people: `sessions show` (terminal lines) and `sessions export --format markdown`.
 * Everything in a transcript came from a model or a server, so control codes are stripped and long texts bounded
 * on the terminal; Markdown keeps the whole text, with code fences longer than any backtick run inside them.
 */
import type { Message } from '../providers/types.js';
import { stripControlCodes } from '../text/strip-control-codes.js';
import type { SavedSession } from './read-session-file.js';
import { boundModelName, boundSessionTitle } from './session-title.js';

/** Characters of one part shown by `sessions show`; `export` has the rest. */
const SHOWN_PART_LENGTH = 2_000;

function bounded(text: string, limit: number | undefined): string {
  const clean = stripControlCodes(text);
  if (limit === undefined || clean.length <= limit) return clean;
  return `${clean.slice(0, limit)}… [${clean.length - limit} more characters; \`sessions export\` has them all]`;
}

export function formatTranscriptLines(session: SavedSession): string[] {
  const lines = [
    `Session ${session.id}: ${boundSessionTitle(session.header.title)}`,
    `  model ${stripControlCodes(boundModelName(session.model))} · started ${stripControlCodes(session.createdAt)} · updated ${stripControlCodes(session.updatedAt)}`,
    `  config ${session.header.config === null ? '(none)' : stripControlCodes(session.header.config)}`,
    '',
  ];
  for (const message of session.messages) lines.push(...messageLines(message));
  return lines;
}

function messageLines(message: Message): string[] {
  const limit = SHOWN_PART_LENGTH;
  switch (message.role) {
    case 'user':
      return message.content.map((part) =>
        part.type === 'text' ? `you: ${bounded(part.text, limit)}` : `you: [image ${stripControlCodes(part.mimeType)}]`,
      );
    case 'assistant':
      return message.content.map((part) =>
        part.type === 'text'
          ? `model: ${bounded(part.text, limit)}`
          : `model calls ${stripControlCodes(part.name)} ${bounded(part.argumentsText, limit)}`,
      );
    case 'tool':
      return message.results.flatMap((result) => [
        `${stripControlCodes(result.toolName)} ${result.isError ? 'failed' : 'answered'}: ${bounded(
          result.content.map((part) => (part.type === 'text' ? part.text : `[image ${part.mimeType}]`)).join('\n'),
          limit,
        )}`,
      ]);
  }
}

export function formatTranscriptMarkdown(session: SavedSession): string {
  const out = [
    `# ${escapeMarkdownLine(session.header.title || 'Session')}`,
    '',
    `- Session: \`${session.id}\``,
    `- Model: \`${stripControlCodes(session.model)}\``,
    `- Started: ${escapeMarkdownLine(session.createdAt)}`,
    `- Updated: ${escapeMarkdownLine(session.updatedAt)}`,
    '',
  ];
  for (const message of session.messages) {
    switch (message.role) {
      case 'user':
        out.push('## User', '');
        for (const part of message.content)
          out.push(part.type === 'text' ? stripControlCodes(part.text) : `*[image ${part.mimeType}]*`, '');
        break;
      case 'assistant':
        out.push('## Assistant', '');
        for (const part of message.content) {
          if (part.type === 'text') out.push(stripControlCodes(part.text), '');
          else out.push(`Calls \`${stripControlCodes(part.name)}\`:`, '', ...fenced(part.argumentsText, 'json'), '');
        }
        break;
      case 'tool':
        for (const result of message.results) {
          out.push(`### Result of \`${stripControlCodes(result.toolName)}\`${result.isError ? ' (error)' : ''}`, '');
          const text = result.content.map((part) => (part.type === 'text' ? part.text : `[image ${part.mimeType}]`));
          out.push(...fenced(text.join('\n'), 'text'), '');
        }
        break;
    }
  }
  return `${out.join('\n').trimEnd()}\n`;
}

function fenced(text: string, language: string): string[] {
  const clean = stripControlCodes(text);
  const longestRun = Math.max(0, ...[...clean.matchAll(/`+/g)].map((match) => match[0].length));
  const fence = '`'.repeat(Math.max(3, longestRun + 1));
  return [`${fence}${language}`, clean, fence];
}

function escapeMarkdownLine(text: string): string {
  return stripControlCodes(text).replace(/[\\`*_[\]<>#]/g, (character) => `\\${character}`);
}
