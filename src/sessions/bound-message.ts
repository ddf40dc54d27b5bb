/**
 * Keeps a message within the record bound before it is saved: images and long texts give way to a short note
 * (the model saw them in full in the turn they came in; a resumed session has the note instead).
 */
import type { Message } from '../providers/types.js';

/** Text parts longer than this are shortened when a message does not fit in a record. */
const KEPT_TEXT_LENGTH = 64 * 1024;

export function boundMessage(message: Message, maxBytes: number): Message {
  if (Buffer.byteLength(JSON.stringify(message)) <= maxBytes) return message;
  const note = (what: string) => ({ type: 'text' as const, text: `[${what} left out of the saved session]` });
  const shortenText = (text: string) =>
    text.length > KEPT_TEXT_LENGTH
      ? `${text.slice(0, KEPT_TEXT_LENGTH)}\n[${text.length - KEPT_TEXT_LENGTH} characters left out of the saved session]`
      : text;
  switch (message.role) {
    case 'user':
      return {
        role: 'user',
        content: message.content.map((part) =>
          part.type === 'image' ? note('an image') : { ...part, text: shortenText(part.text) },
        ),
      };
    case 'assistant':
      return {
        ...message,
        content: message.content.map((part) =>
          part.type === 'text'
            ? { ...part, text: shortenText(part.text) }
            : part.argumentsText.length > KEPT_TEXT_LENGTH
              ? { ...part, argumentsText: '{}' }
              : part,
        ),
      };
    case 'tool':
      return {
        role: 'tool',
        results: message.results.map((result) => ({
          ...result,
          content: result.content.map((part) =>
            part.type === 'text' ? { ...part, text: shortenText(part.text) } : note(`a ${part.type} part`),
          ),
        })),
      };
  }
}
