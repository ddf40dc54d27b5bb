/**
 * What call ids each wire accepts, for `withWireCallIds`. None of these limits is in the providers' API references
 * (their SDK types say only `string`); each is what the API's own 400 says, as users report it, and none is verified
 * against the live API here. Gemini is not listed: its requests carry no id but one Gemini made up itself.
 */
export interface CallIdRules {
  /** Where a call id must not repeat: across the whole request, or among the calls of one answer. */
  uniqueAcross: 'request' | 'answer';
  /** The characters the wire refuses in an id (a global pattern); each becomes `_`. */
  refusedCharacters?: RegExp;
  /** The longest id the wire takes, in characters. */
  maxLength?: number;
}

/**
 * Anthropic: "`tool_use` ids must be unique" across the request, and "tool_use.id: String should match pattern
 * '^[a-zA-Z0-9_-]+$'" (the API's words; the same pattern on `tool_result.tool_use_id` is unverified). No length limit
 * is known.
 */
export const ANTHROPIC_CALL_IDS: CallIdRules = { uniqueAcross: 'request', refusedCharacters: /[^a-zA-Z0-9_-]/g };

/**
 * OpenAI Chat Completions: "Invalid 'messages[2].tool_calls[0].id': string too long. Expected a string with maximum
 * length 40" (the API's words); no refused characters are known. A tool message answers the assistant message just
 * before it, so an id may repeat across turns. Local OpenAI-compatible servers get the same ids.
 */
export const OPENAI_CHAT_CALL_IDS: CallIdRules = { uniqueAcross: 'answer', maxLength: 40 };

/**
 * OpenAI Responses: "Invalid 'input[95].call_id': string too long. Expected a string with maximum length 64" (the
 * API's words); no refused characters are known. Its input is one flat list, where an output finds its call by id.
 */
export const OPENAI_RESPONSES_CALL_IDS: CallIdRules = { uniqueAcross: 'request', maxLength: 64 };
