/**
 * The chat's turn running on the server, if any, for what shows outside the Chat page (the approval dialog, which
 * covers the chat's Stop). Followed by the chat's events on every page; read from `GET /api/chat/running` (its id
 * alone, not the conversation) only while `wanted` (a question is shown that may offer to stop it), and again after
 * the event stream reconnected, since events that would have told of the turn may have passed the page by.
 */
import { useEffect, useRef, useState } from 'react';
import type { RunningTurnView } from '../../src/web/api-types';
import { getJson, useLiveEvents, useReconnects } from './api';

export function useRunningTurn(wanted: boolean): string | undefined {
  const [turnId, setTurnId] = useState<string>();
  // Counts the chat's events: a read answered after one came is older than what that event told.
  const chatEvents = useRef(0);
  // Only the latest ended turn is needed: the turns run one after another.
  const lastEnded = useRef<string | undefined>(undefined);
  const reconnects = useReconnects();
  useLiveEvents((live) => {
    if (live.type !== 'chat') return;
    chatEvents.current += 1;
    const { turnId: id, event } = live.chat;
    if (event.type === 'turn-done') {
      lastEnded.current = id;
      setTurnId((running) => (running === id ? undefined : running));
    } else if (id !== lastEnded.current) {
      setTurnId(id);
    }
  });
  // biome-ignore lint/correctness/useExhaustiveDependencies: reconnects exists to trigger a read.
  useEffect(() => {
    if (!wanted) return;
    let live = true;
    const eventsBefore = chatEvents.current;
    getJson<RunningTurnView>('/api/chat/running').then(
      (state) => {
        if (!live || chatEvents.current !== eventsBefore) return;
        const running = state.running ? state.turnId : undefined;
        setTurnId(running === lastEnded.current ? undefined : running);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [wanted, reconnects]);
  return turnId;
}
