/**
 * A chat in the browser: each message is one run of the host's agent loop with the conversation so far, its events
 * streamed to the page as they happen (text, tool calls and the three translations of each call). One turn at a
 * time; a new turn waits for none, it is refused while one runs.
 */

import { randomUUID } from 'node:crypto';
import type { Host } from '../host/create-host.js';
import { stringifyJsonWithinDepth } from '../json/json-depth.js';
import type { AgentEvent } from '../loop/events.js';
import type { Message } from '../providers/types.js';
import type { LiveEvents } from './live-events.js';

/** A provider request body past this size is sent to the page cut (the tool definitions of big servers). */
const MAX_EVENT_CHARS = 400_000;

export interface ChatRunner {
  send(host: Host, text: string, turnId?: string): { turnId: string };
  cancel(): boolean;
}

export class ChatBusyError extends Error {}

function eventForPage(event: AgentEvent): { type: string; [key: string]: unknown } {
  const text = stringifyJsonWithinDepth(event, 'the event') ?? '{}';
  if (text.length <= MAX_EVENT_CHARS) return JSON.parse(text) as { type: string };
  return {
    type: event.type,
    cut: `${text.slice(0, MAX_EVENT_CHARS)} … (${text.length - MAX_EVENT_CHARS} more characters)`,
  };
}

export function createChatRunner(events: LiveEvents): ChatRunner {
  let history: Message[] = [];
  let current: AbortController | undefined;
  return {
    send(host, text, chosenId) {
      if (current !== undefined) throw new ChatBusyError('A turn is still running: wait for it or cancel it.');
      const turnId = chosenId?.slice(0, 100) ?? randomUUID();
      const controller = new AbortController();
      current = controller;
      const publish = (event: { type: string; [key: string]: unknown }) =>
        events.publish({ type: 'chat', chat: { turnId, event } });
      void host
        .run(text, {
          history,
          signal: controller.signal,
          onEvent: (event) => publish(eventForPage(event)),
        })
        .then((result) => {
          history = result.messages;
        })
        .catch((error: unknown) => {
          publish({ type: 'run-error', message: error instanceof Error ? error.message : String(error) });
        })
        .finally(() => {
          current = undefined;
          publish({ type: 'turn-done' });
        });
      return { turnId };
    },
    cancel() {
      if (current === undefined) return false;
      current.abort(new Error('cancelled from the web UI'));
      return true;
    },
  };
}
