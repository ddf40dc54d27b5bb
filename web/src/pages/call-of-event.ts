/**
 * Which card of a chat turn an event of a tool call is about. A call id is unique only within one answer of the
 * model (local OpenAI-compatible servers send `call_0` at every answer, a script may fix its ids), so an event is
 * paired with a call of the answer it belongs to, as the transcript pairs a result with a call of the answer just
 * before it: never with an earlier answer's call of the same id.
 */

export interface CallOfAnswer {
  callId: string;
  /** The model answer, counted in the run, that made the call. */
  turn: number;
  /** Its place among that answer's calls, from 0, once known. */
  index?: number;
  /** Set once the call's end (its result) is known. */
  end?: unknown;
}

/**
 * The index in `calls` of the call `callId` of answer `turn` (the latest answer that made a call of that id when the
 * event does not say): the one at the event's `place` among the answer's calls when it says, as two calls of one
 * answer may share an id; else the first of that id not yet ended, else the last of them; -1 when the answer made no
 * call of that id.
 */
export function callOfEvent(calls: readonly CallOfAnswer[], callId: string, turn?: number, place?: number): number {
  let answer = turn;
  if (answer === undefined) {
    for (const call of calls) {
      if (call.callId === callId && (answer === undefined || call.turn > answer)) answer = call.turn;
    }
  }
  let last = -1;
  for (const [index, call] of calls.entries()) {
    if (call.callId !== callId || call.turn !== answer) continue;
    if (place !== undefined && call.index !== undefined) {
      if (call.index === place) return index;
      continue;
    }
    if (call.end === undefined) return index;
    last = index;
  }
  return last;
}
