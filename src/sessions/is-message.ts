/** Whether a value read back from a file has the shape of a neutral transcript message (parts checked by type). */
import type { Message } from '../providers/types.js';

type Loose = Record<string, unknown>;
const isObject = (value: unknown): value is Loose => typeof value === 'object' && value !== null;
const isText = (part: Loose) => part.type === 'text' && typeof part.text === 'string';
const isImage = (part: Loose) =>
  part.type === 'image' && typeof part.data === 'string' && typeof part.mimeType === 'string';
const isToolCall = (part: Loose) =>
  part.type === 'tool-call' &&
  typeof part.id === 'string' &&
  typeof part.name === 'string' &&
  typeof part.argumentsText === 'string';
const all = (value: unknown, check: (part: Loose) => boolean) =>
  Array.isArray(value) && value.every((part) => isObject(part) && check(part));

export function isMessage(value: unknown): value is Message {
  if (!isObject(value)) return false;
  switch (value.role) {
    case 'user':
      return all(value.content, (part) => isText(part) || isImage(part));
    case 'assistant':
      return all(value.content, (part) => isText(part) || isToolCall(part));
    case 'tool':
      return all(
        value.results,
        (result) =>
          typeof result.callId === 'string' &&
          typeof result.toolName === 'string' &&
          typeof result.isError === 'boolean' &&
          all(result.content, (part) => isText(part) || isImage(part)),
      );
    default:
      return false;
  }
}
