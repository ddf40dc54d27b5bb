import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ConversationView, ScriptAnswer } from '../script-types.js';

/**
 * One provider's wire format inside the mock LLM server. The server core reads the body, asks each
 * wire whether the request is its own, and lets it translate request → ConversationView and
 * ScriptAnswer → response (JSON or SSE exactly as the official SDK expects).
 *
 * Order of the core's calls: `matches` → `checkAuth` → (JSON parse) → `readRequest` → script →
 * `writeAnswer` or `writeError`. A malformed body is answered through the wire's own `writeError`,
 * so every error the SDK sees is in its provider's error shape.
 */
export interface MockWire {
  readonly name: 'anthropic' | 'openai-chat' | 'openai-responses' | 'gemini';
  /**
   * Human-readable routes this wire serves (e.g. `POST /v1/messages`), listed in the 404 answer
   * for an unknown path. Optional: the wire's name is listed when absent.
   */
  readonly paths?: readonly string[];
  /** `path` is the URL path WITHOUT its query string (SDKs may add one). */
  matches(method: string, path: string): boolean;
  /**
   * Throws an Error with a message naming what was malformed; the core answers 400 with it.
   * `path` is the full request target, query string included (e.g. `?alt=sse`).
   */
  readRequest(body: unknown, path: string): ConversationView;
  writeAnswer(res: ServerResponse, answer: ScriptAnswer & { kind: 'turn' }, view: ConversationView): void;
  writeError(res: ServerResponse, status: number, message: string): void;
  /** Checks the request's credentials header(s); returns an error message when missing. */
  checkAuth?(req: IncomingMessage): string | undefined;
}
