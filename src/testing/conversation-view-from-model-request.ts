/**
 * Reads a provider-neutral ModelRequest the way the script engine needs it (first user text,
 * assistant turns so far, the latest tool results), for the in-process scripted provider.
 */
import type { ModelRequest, ToolResultPart, UserPart } from '../providers/types.js';
import type { ConversationView } from './script-types.js';
import { userQuestions } from './user-questions.js';

export function conversationViewFromModelRequest(
  request: ModelRequest,
  settings: { model: string; stream: boolean },
): ConversationView {
  const firstUser = request.messages.find((message) => message.role === 'user');
  return {
    model: settings.model,
    stream: settings.stream,
    toolNames: request.tools.map((tool) => tool.name),
    firstUserText: firstUser ? textOfParts(firstUser.content) : '',
    assistantTurns: request.messages.filter((message) => message.role === 'assistant').length,
    callIds: request.messages.flatMap((message) =>
      message.role === 'assistant' ? message.content.flatMap((part) => (part.type === 'tool-call' ? part.id : [])) : [],
    ),
    userQuestions: userQuestions(
      request.messages,
      (message) => message.role === 'assistant',
      (message) => (message.role === 'user' ? textOfParts(message.content) : undefined),
    ),
    lastToolResults: latestToolResults(request),
  };
}

/** Results of the tool message(s) after the last assistant message: the answers to its calls. */
function latestToolResults(request: ModelRequest): ConversationView['lastToolResults'] {
  const results: ConversationView['lastToolResults'] = [];
  for (let index = request.messages.length - 1; index >= 0; index--) {
    const message = request.messages[index];
    if (!message || message.role === 'assistant') break;
    if (message.role === 'tool') {
      const found = message.results.map((result) => ({ text: textOfParts(result.content), isError: result.isError }));
      results.unshift(...found);
    }
  }
  return results;
}

/** Text parts joined by newlines; an image stands as `[image: <mime type>]` so scripts can see it. */
function textOfParts(parts: readonly (UserPart | ToolResultPart)[]): string {
  return parts.map((part) => (part.type === 'text' ? part.text : `[image: ${part.mimeType}]`)).join('\n');
}
