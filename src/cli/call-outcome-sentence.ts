import type { CallOutcome } from '../loop/events.js';

/** How the CLI says a call ended, as a sentence rather than the audit log's one-word outcome. */
const OUTCOME_SENTENCES: Record<CallOutcome, (server: string) => string> = {
  ok: () => 'the call succeeded',
  error: () => 'the call returned an error',
  timeout: () => 'the call timed out',
  denied: () => 'the call was denied',
  // Named: the report of how the server went may be far above, among other servers' lines.
  crashed: (server) => `the call failed: the connection to server "${server}" ended`,
  cancelled: () => 'the call was cancelled',
  invalid: () => 'the call was refused: its arguments are not valid',
};

/** `server`: the server the call went to, as the config names it. */
export function callOutcomeSentence(outcome: CallOutcome, server: string): string {
  return OUTCOME_SENTENCES[outcome](server);
}
