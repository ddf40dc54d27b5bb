/** What a failure says, for showing: an Error's message, anything else thrown as text. */
export function errorMessage(failure: unknown): string {
  return failure instanceof Error ? failure.message : String(failure);
}
