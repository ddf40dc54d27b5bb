/** The shape of one chat command (`/tools`, `/model` …). */
import type { ChatContext } from './chat-context.js';

export interface SlashCommand {
  /** Without the slash. */
  name: string;
  /** How its argument is written in /help, e.g. `[filter]`. */
  usage?: string;
  summary: string;
  run(context: ChatContext, argument: string): Promise<void>;
  /** Candidates for the argument being typed (Tab). */
  complete?(context: ChatContext, argument: string): Promise<string[]>;
}

/** A failure a command reports in one line; the chat goes on. */
export class ChatCommandError extends Error {
  override readonly name = 'ChatCommandError';
}
