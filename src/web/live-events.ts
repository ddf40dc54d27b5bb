/** The live streams the browser follows (audit, server logs, progress, approvals, chat), fanned out to every tab. */
import type { LiveEvent } from './api-types.js';

export interface LiveEvents {
  publish(event: LiveEvent): void;
  /** Returns the unsubscribe function. */
  subscribe(listener: (event: LiveEvent) => void): () => void;
}

export function createLiveEvents(): LiveEvents {
  const listeners = new Set<(event: LiveEvent) => void>();
  return {
    publish(event) {
      for (const listener of listeners) listener(event);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
