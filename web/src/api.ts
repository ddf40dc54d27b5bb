/** The browser's side of the one API: JSON over fetch, live events over one EventSource, each with the UI's token. */
import { useEffect, useRef, useState } from 'react';
import type { HostStateView, LiveEvent } from '../../src/web/api-types';
import { errorMessage } from './error-message';
import { uiToken } from './ui-token';

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

async function answer<T>(response: Response): Promise<T> {
  const body = (await response.json().catch(() => ({}))) as { error?: string };
  if (!response.ok) throw new ApiError(body.error ?? `The request failed (${response.status}).`, response.status);
  return body as T;
}

export async function getJson<T>(path: string): Promise<T> {
  return answer<T>(
    await fetch(path, {
      credentials: 'omit',
      headers: { accept: 'application/json', authorization: `Bearer ${await uiToken()}` },
    }),
  );
}

export async function postJson<T>(path: string, body: unknown = {}): Promise<T> {
  return answer<T>(
    await fetch(path, {
      method: 'POST',
      credentials: 'omit',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        authorization: `Bearer ${await uiToken()}`,
      },
      body: JSON.stringify(body),
    }),
  );
}

type Listener = (event: LiveEvent) => void;
const listeners = new Set<Listener>();
const EVENT_TYPES: Array<LiveEvent['type']> = [
  'host',
  'audit',
  'server-log',
  'progress',
  'approvals',
  'catalog',
  'chat',
  'chat-session',
  'sessions',
  'resource-updated',
];

// The host drops the stream of a page that fell too far behind (a tab frozen for a while); the browser then
// reconnects, and whatever the page keeps from events is loaded afresh, since some of them never reached it.
const reconnectListeners = new Set<() => void>();
let opened = false;

let connecting = false;

function connect(): void {
  if (connecting) return;
  connecting = true;
  void uiToken().then(open);
}

function open(token: string): void {
  // EventSource sends no header of the page's: the token goes in the address of this same-origin request.
  const source = new EventSource(`/api/events?token=${encodeURIComponent(token)}`);
  source.addEventListener('open', () => {
    if (opened) for (const listener of reconnectListeners) listener();
    opened = true;
  });
  for (const type of EVENT_TYPES) {
    source.addEventListener(type, (message) => {
      const event = JSON.parse((message as MessageEvent<string>).data) as LiveEvent;
      for (const listener of listeners) listener(event);
    });
  }
}

/** Calls `listener` for every live event while the component is mounted. */
export function useLiveEvents(listener: Listener): void {
  const current = useRef(listener);
  current.current = listener;
  useEffect(() => {
    connect();
    const forward: Listener = (event) => current.current(event);
    listeners.add(forward);
    return () => {
      listeners.delete(forward);
    };
  }, []);
}

/** How many times the event stream reconnected while the component is mounted: state to load again when it grows. */
export function useReconnects(): number {
  const [count, setCount] = useState(0);
  useEffect(() => {
    connect();
    const bump = () => setCount((value) => value + 1);
    reconnectListeners.add(bump);
    return () => {
      reconnectListeners.delete(bump);
    };
  }, []);
  return count;
}

/**
 * Loads `path` once, and again whenever `reloadKey` changes or the event stream reconnects (events that would have
 * told of changes may have been missed); errors are kept to show.
 */
export function useJson<T>(path: string, reloadKey: unknown = 0): { data?: T; error?: string; reload: () => void } {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<string>();
  const [tick, setTick] = useState(0);
  const reconnects = useReconnects();
  // biome-ignore lint/correctness/useExhaustiveDependencies: reloadKey, tick and reconnects exist to trigger a reload.
  useEffect(() => {
    let live = true;
    getJson<T>(path).then(
      (value) => {
        if (live) {
          setData(value);
          setError(undefined);
        }
      },
      (failure: unknown) => {
        if (live) setError(errorMessage(failure));
      },
    );
    return () => {
      live = false;
    };
  }, [path, reloadKey, tick, reconnects]);
  return { data, error, reload: () => setTick((value) => value + 1) };
}

export function useHostState(): HostStateView {
  const [state, setState] = useState<HostStateView>({ phase: 'starting' });
  useEffect(() => {
    void getJson<HostStateView>('/api/state').then(setState, () => undefined);
  }, []);
  useLiveEvents((event) => {
    if (event.type === 'host') setState(event.state);
  });
  return state;
}
