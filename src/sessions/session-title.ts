/** A session's title: its first user text on one line, bounded, with no terminal control codes. */
import type { Message } from '../providers/types.js';
import { stripControlCodes } from '../text/strip-control-codes.js';

const MAX_TITLE_LENGTH = 80;

export function sessionTitle(messages: readonly Message[]): string {
  const first = messages.find((message) => message.role === 'user');
  const text = first?.role === 'user' ? first.content.find((part) => part.type === 'text')?.text : undefined;
  return boundSessionTitle(text ?? '');
}

/** Also applied to a title read back from a file, which someone else may have written at any length. */
export function boundSessionTitle(text: string): string {
  const line = stripControlCodes(text.slice(0, MAX_TITLE_LENGTH * 4))
    .replace(/\s+/g, ' ')
    .trim();
  return line.length > MAX_TITLE_LENGTH ? `${line.slice(0, MAX_TITLE_LENGTH - 1)}…` : line;
}

/** A model name as listings show it: `provider:model` is short; one from a file someone else wrote may not be. */
export function boundModelName(model: string): string {
  return model.length > MAX_MODEL_NAME_LENGTH ? `${model.slice(0, MAX_MODEL_NAME_LENGTH - 1)}…` : model;
}

/** The longest model name shown whole, and the longest an answer's record is taken to name (read-session-file.ts). */
export const MAX_MODEL_NAME_LENGTH = 200;
