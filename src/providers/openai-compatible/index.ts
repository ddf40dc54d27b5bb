/**
 * Local OpenAI-compatible servers (Ollama, llama.cpp, vLLM, LM Studio) go through the Chat adapter
 * (`createOpenAiChatProvider({ provider: 'ollama' | 'openai-compatible' })`); this folder holds what
 * is theirs alone: where to connect, and noticing a tool call printed as text.
 */
export {
  appendTextualToolCallNote,
  detectTextualToolCall,
  type TextualToolCall,
  textualToolCallNote,
} from './detect-textual-tool-call.js';
export {
  defaultOllamaBaseUrl,
  type Environment,
  localServerPlaceholderKey,
  type OpenAiConnection,
  type OpenAiConnectionOptions,
  type OpenAiProtocolProvider,
  ollamaBaseUrl,
  resolveOpenAiConnection,
} from './resolve-openai-connection.js';
