/**
 * The default budget for one tool result, in estimated tokens. A widely used host caps tool results at
 * 25,000 tokens by default: enough for a long file or a large listing, while leaving most of a typical
 * 128K–200K context for the conversation and the other results of the turn.
 *
 * Its own module, apart from the budget that applies it: the gateway holds what it passes on beside a call's content
 * to the same figure, and imports nothing that carries out a duty of the host.
 */
export const DEFAULT_RESULT_TOKEN_BUDGET = 25_000;
