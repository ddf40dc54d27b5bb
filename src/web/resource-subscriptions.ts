/**
 * The resources the web UI subscribed to (`resources/subscribe`), kept for the life of the UI so any page or tab
 * sees them, with how often each server said one changed; each change goes out on the event stream.
 */
import type { ResourceSubscriptionView } from './api-types.js';
import type { LiveEvents } from './live-events.js';

/** Subscriptions kept at once; one past this is refused (a page cannot make the host hold unbounded state). */
const MAX_SUBSCRIPTIONS = 200;

export interface ResourceSubscriptions {
  list(): ResourceSubscriptionView[];
  has(server: string, uri: string): boolean;
  add(server: string, uri: string): ResourceSubscriptionView;
  remove(server: string, uri: string): void;
  /** `notifications/resources/updated` from a server; ignored unless subscribed here. */
  updated(update: { server: string; uri: string }): void;
}

export class TooManySubscriptions extends Error {}

export function createResourceSubscriptions(events: LiveEvents): ResourceSubscriptions {
  const subscriptions = new Map<string, ResourceSubscriptionView>();
  const key = (server: string, uri: string) => JSON.stringify([server, uri]);
  return {
    list: () => [...subscriptions.values()].map((entry) => ({ ...entry })),
    has: (server, uri) => subscriptions.has(key(server, uri)),
    add(server, uri) {
      const existing = subscriptions.get(key(server, uri));
      if (existing !== undefined) return { ...existing };
      if (subscriptions.size >= MAX_SUBSCRIPTIONS) {
        throw new TooManySubscriptions(
          `at most ${MAX_SUBSCRIPTIONS} subscriptions are kept; unsubscribe from one first`,
        );
      }
      const entry: ResourceSubscriptionView = { server, uri, updates: 0 };
      subscriptions.set(key(server, uri), entry);
      return { ...entry };
    },
    remove(server, uri) {
      subscriptions.delete(key(server, uri));
    },
    updated({ server, uri }) {
      const entry = subscriptions.get(key(server, uri));
      if (entry === undefined) return;
      entry.updates += 1;
      entry.lastUpdated = new Date().toISOString();
      events.publish({ type: 'resource-updated', subscription: { ...entry } });
    },
  };
}
