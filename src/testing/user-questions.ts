/**
 * The user's questions in a conversation, each with the number of assistant turns before it, read alike from every
 * wire's messages: the script engine answers a new question with the scenario that matches it once the scenario
 * answering the one before has played all its turns (see answer-from-script.ts).
 */
import type { UserQuestion } from './script-types.js';

/**
 * `questionText`: a user message's own text ('' or undefined for what is no question, such as tool results only);
 * `isAssistantTurn`: the item starts an assistant turn, counted as the wire counts `assistantTurns`.
 */
export function userQuestions<Item>(
  items: readonly Item[],
  isAssistantTurn: (item: Item, index: number) => boolean,
  questionText: (item: Item) => string | undefined,
): UserQuestion[] {
  const questions: UserQuestion[] = [];
  let assistantTurns = 0;
  for (const [index, item] of items.entries()) {
    if (isAssistantTurn(item, index)) {
      assistantTurns += 1;
      continue;
    }
    const text = questionText(item);
    if (text !== undefined && text !== '') questions.push({ text, assistantTurnsBefore: assistantTurns });
  }
  return questions;
}
