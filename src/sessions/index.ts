/** Conversations and the sessions they are saved in. */

export { type ConversationDependencies, createConversation } from './conversation.js';
export type {
  Conversation,
  ConversationOptions,
  ConversationUsage,
  TurnRunner,
  TurnRunnerOptions,
} from './conversation-types.js';
export { openConversation } from './open-conversation.js';
export { readSessionFile, type SavedSession, SessionFileError } from './read-session-file.js';
export { SESSION_FORMAT_VERSION, type SessionRecord } from './session-records.js';
export {
  openSessionStore,
  type SessionStore,
  type SessionSummary,
  sessionsFolder,
  UnknownSessionError,
} from './session-store.js';
