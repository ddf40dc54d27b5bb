/**
 * Public test stand-ins (`mcp-host/testing`): what this project tests itself with, for users to
 * test their own hosts the same way — a scripted model in-process, a mock LLM HTTP server speaking
 * each provider's wire format for the official SDKs, and an in-memory MCP client/server pair.
 */
export { answerFromScript, defaultFallbackText } from './answer-from-script.js';
export { checkExpectation } from './check-expectation.js';
export { conversationViewFromModelRequest } from './conversation-view-from-model-request.js';
export {
  type ConnectableServer,
  createInMemoryServerPair,
  type InMemoryServerPair,
} from './in-memory-server.js';
export { loadScript, parseScript } from './load-script.js';
export {
  type MockLlmServer,
  type MockLlmServerOptions,
  type RecordedRequest,
  startMockLlmServer,
} from './mock-llm/mock-llm-server.js';
export type { MockWire } from './mock-llm/wire.js';
export { anthropicWire } from './mock-llm/wires/anthropic.js';
export { createGeminiWire, type GeminiWireOptions, geminiWire } from './mock-llm/wires/gemini.js';
export { defaultWires } from './mock-llm/wires/index.js';
export { openAiChatWire } from './mock-llm/wires/openai-chat.js';
export { type OpenAiChatQuirk, openAiChatQuirks } from './mock-llm/wires/openai-chat-read-request.js';
export { openAiResponsesWire } from './mock-llm/wires/openai-responses.js';
export type {
  ConversationView,
  Script,
  ScriptAnswer,
  ScriptExpectation,
  ScriptScenario,
  ScriptToolCall,
  ScriptTurn,
  UserQuestion,
} from './script-types.js';
export { createScriptedProvider, type ScriptedProvider, type ScriptedProviderOptions } from './scripted-provider.js';
