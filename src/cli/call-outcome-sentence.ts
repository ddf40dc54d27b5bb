import type { CallOutcome } from '../loop/events.js';

/** How the CLI says a call ended, as a sentence rather than the audit log's one-word outcome. */
const OUTCOME_SENTENCES: Record<CallOutcome, string> = {
  ok: 'the call succeeded',
  error: 'the call returned an error',
  timeout: 'the call timed out',
  denied: 'the call was denied',
  crashed: 'the call failed: the connection to the server ended',
  cancelled: 'the call was cancelled',
  invalid: 'the call was refused: its arguments are not valid',
};

export function callOutcomeSentence(outcome: CallOutcome): string {
  return OUTCOME_SENTENCES[outcome];
}
