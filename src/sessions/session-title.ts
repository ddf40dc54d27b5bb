/** A session's title: its first user text on one line, bounded, with no terminal control codes. */
import type { Message } from '../providers/types.js';
import { stripControlCodes } from '../text/strip-control-codes.js';

const MAX_TITLE_LENGTH = 80;

export function sessionTitle(messages: readonly Message[]): string {
  const first = messages.find((message) => message.role === 'user');
  const text = first?.role === 'user' ? first.content.find((part) => part.type === 'text')?.text : undefined;
  return boundTitle(text ?? '');
}

function boundTitle(text: string): string {
  const line = stripControlCodes(text.slice(0, MAX_TITLE_LENGTH * 4))
    .replace(/\s+/g, ' ')
    .trim();
  return line.length > MAX_TITLE_LENGTH ? `${line.slice(0, MAX_TITLE_LENGTH - 1)}…` : line;
}
