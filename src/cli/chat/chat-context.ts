/** What the chat's commands work with: the host, the conversation, the terminal, and how to run a turn or leave. */
import type { Host } from '../../host/create-host.js';
import type { Conversation } from '../../host/host-types.js';
import type { UserPart } from '../../providers/types.js';
import type { ChatInput } from './chat-input.js';
import type { ChatOutput } from './chat-output.js';
import type { ToolCallLog } from './tool-call-log.js';

/** The conversation as the host gives it (`host.conversation()`). */
export type ChatConversation = Conversation;

export interface ChatContext {
  readonly host: Host;
  readonly conversation: ChatConversation;
  readonly output: ChatOutput;
  readonly input: ChatInput;
  /** The numbered tool calls of this conversation (`/expand`). */
  readonly calls: ToolCallLog;
  /** Runs one user turn, shown as it goes; resolves when it has ended (or was cancelled). */
  turn(text: string, images?: UserPart[]): Promise<void>;
  /** Ends the chat after the current command. */
  exit(): void;
}
