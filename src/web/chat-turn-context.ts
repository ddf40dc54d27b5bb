/**
 * Which chat turn a question belongs to: the chat runner makes each turn's calls to servers in its mark's name
 * (connections/call-streams.ts), so a question about one of those calls (its approval, a server's request that came
 * with it, a refusal of it) is known to be that turn's, and the person can stop the turn from it. A question about
 * no call (a tool's changed definition, a changed server) is no turn's, whatever code raised it.
 */
import { asCallOf } from '../connections/call-being-made.js';

/**
 * The turn, while it runs: a question of a turn that ended (a server's request the server never withdrew) is no
 * longer a question of a turn to stop.
 */
export interface ChatTurnMark {
  turnId: string;
  running: boolean;
}

const marks = new WeakSet<object>();

/** Runs `work` as the turn `mark` stands for, its calls to servers made in the mark's name. */
export function asChatTurn<T>(mark: ChatTurnMark, work: () => T): T {
  marks.add(mark);
  return asCallOf(mark, work);
}

/** The chat turn running that a question is about, when the call it is about is one of a turn's. */
export function chatTurnOfCall(call: object | undefined): string | undefined {
  if (call === undefined || !marks.has(call)) return undefined;
  const mark = call as ChatTurnMark;
  return mark.running ? mark.turnId : undefined;
}
