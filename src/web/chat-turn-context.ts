/**
 * Which chat turn the code running now belongs to: the chat runner runs each turn inside it, so a question the turn
 * asks (a call waiting for approval) is known to be that turn's, and the person can stop the turn from it. The turn's
 * calls to servers are made in its mark's name too (connections/call-streams.ts), so a server's request that came
 * with one of them is known to be the turn's as well.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { asCallOf } from '../connections/call-streams.js';

const chatTurnContext = new AsyncLocalStorage<ChatTurnMark>();

/**
 * The turn, while it runs: what the turn started (a server restarted during it) may still run in its context after
 * it ended, and is then no question of a turn to stop.
 */
export interface ChatTurnMark {
  turnId: string;
  running: boolean;
}

const marks = new WeakSet<object>();

/** Runs `work` as the turn `mark` stands for, its calls to servers made in the mark's name. */
export function asChatTurn<T>(mark: ChatTurnMark, work: () => T): T {
  marks.add(mark);
  return chatTurnContext.run(mark, () => asCallOf(mark, work));
}

/** The chat turn running that a server's request came with, when the call it came with is one of a turn's. */
export function chatTurnOfCall(call: object | undefined): string | undefined {
  if (call === undefined || !marks.has(call)) return undefined;
  const mark = call as ChatTurnMark;
  return mark.running ? mark.turnId : undefined;
}

/** The id of the chat turn running that the code running now belongs to, if any. */
export function currentChatTurn(): string | undefined {
  const mark = chatTurnContext.getStore();
  return mark?.running === true ? mark.turnId : undefined;
}
