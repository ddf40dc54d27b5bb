/**
 * Which chat turn the code running now belongs to: the chat runner runs each turn inside it, so a question the turn
 * asks (a call waiting for approval) is known to be that turn's, and the person can stop the turn from it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export const chatTurnContext = new AsyncLocalStorage<ChatTurnMark>();

/**
 * The turn, while it runs: what the turn started (a server restarted during it) may still run in its context after
 * it ended, and is then no question of a turn to stop.
 */
export interface ChatTurnMark {
  turnId: string;
  running: boolean;
}

/** The id of the chat turn running that the code running now belongs to, if any. */
export function currentChatTurn(): string | undefined {
  const mark = chatTurnContext.getStore();
  return mark?.running === true ? mark.turnId : undefined;
}
