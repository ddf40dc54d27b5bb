/**
 * Estimated tokens of transcript messages, the way the output budget estimates text (4 ASCII characters a token),
 * over the message as JSON so structure counts too. Messages never change once in a transcript, so each is
 * measured once: a long conversation costs one measurement per new message, not one per message per turn.
 */
import { DEFAULT_IMAGE_TOKEN_COST, estimateTokens } from '../content/linear-token-estimate.js';
import type { Message } from '../providers/types.js';

const measured = new WeakMap<Message, number>();

function estimateMessageTokens(message: Message): number {
  const known = measured.get(message);
  if (known !== undefined) return known;
  let images = 0;
  const json = JSON.stringify(message, (key, value: unknown) => {
    // An image costs what providers charge for one, not the length of its base64 data.
    if (key === 'data' && typeof value === 'string') {
      images += 1;
      return '';
    }
    return value;
  });
  const tokens = estimateTokens(json) + images * DEFAULT_IMAGE_TOKEN_COST;
  measured.set(message, tokens);
  return tokens;
}

export function estimateMessagesTokens(messages: readonly Message[]): number {
  let total = 0;
  for (const message of messages) total += estimateMessageTokens(message);
  return total;
}
