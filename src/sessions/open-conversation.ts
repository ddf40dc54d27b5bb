/** Starts a conversation, new or resumed from a saved session as the options ask. */

import { type ConversationDependencies, createConversation } from './conversation.js';
import type { Conversation, ConversationOptions } from './conversation-types.js';

export function openConversation(
  dependencies: Omit<ConversationDependencies, 'resume'>,
  options: ConversationOptions = {},
): Conversation {
  const { store } = dependencies;
  // A newest session that cannot be read is passed over, and the user told so rather than left to wonder.
  const newest = () => store.newestFor(dependencies.config, dependencies.onDiagnostic)?.id;
  const id = options.sessionId ?? (options.continueLast ? newest() : undefined);
  if (id === undefined) return createConversation(dependencies);
  // Held before it is read, so no other process appends between the reading and this conversation's first record.
  store.hold(id);
  try {
    return createConversation({ ...dependencies, resume: { id, saved: store.read(id) } });
  } catch (error) {
    store.release(id);
    throw error;
  }
}
