/** Starts a conversation, new or resumed from a saved session as the options ask. */

import { type ConversationDependencies, createConversation } from './conversation.js';
import type { Conversation, ConversationOptions } from './conversation-types.js';

export function openConversation(
  dependencies: Omit<ConversationDependencies, 'resume'>,
  options: ConversationOptions = {},
): Conversation {
  const { store } = dependencies;
  const id = options.sessionId ?? (options.continueLast ? store.newestFor(dependencies.config)?.id : undefined);
  if (id === undefined) return createConversation(dependencies);
  return createConversation({ ...dependencies, resume: { id, saved: store.read(id) } });
}
