/**
 * The provider-neutral content of tool results and the neutral tool definition. They live in the content layer,
 * which produces them from MCP results; the providers layer re-exports them as part of its message types.
 */

/** A tool as offered to the model: a namespaced name and a JSON Schema for its input. */
export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  /**
   * Loaded only when the provider's own tool search finds it (Anthropic's and OpenAI's `defer_loading`). The host
   * sets it only for a provider that says it searches natively (`LlmProvider.nativeToolSearch`).
   */
  deferLoading?: boolean;
}

export interface TextPart {
  type: 'text';
  text: string;
}

export interface ImagePart {
  type: 'image';
  /** Base64 data, never sent to a model as text. */
  data: string;
  mimeType: string;
}

export type ToolResultPart = TextPart | ImagePart;
