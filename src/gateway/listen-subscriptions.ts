/**
 * The resources a `subscriptions/listen` request of the 2026-07-28 revision names: each owning server is subscribed
 * for as long as the stream is open, shared with the profile's other subscribers. The SDK serves the stream itself
 * (acknowledgement, filtering, end); the request it gets names only the resources that could be subscribed, so the
 * acknowledgement tells the client which of its resources it will hear about.
 */
import type { ProfileHost } from './gateway-hosts.js';
import { subscribableOwner } from './gateway-session.js';
import { type ListenStream, MAX_SUBSCRIPTIONS_PER_SESSION } from './resource-subscriptions.js';

interface ListenRequest {
  method: 'subscriptions/listen';
  params: { notifications: { resourceSubscriptions: unknown[] } & Record<string, unknown> } & Record<string, unknown>;
}

/** A listen request naming resources; anything else (a malformed one too) is the SDK's to answer. */
function isListenWithResources(body: unknown): body is ListenRequest {
  if (typeof body !== 'object' || body === null) return false;
  const { method, params } = body as { method?: unknown; params?: unknown };
  if (method !== 'subscriptions/listen' || typeof params !== 'object' || params === null) return false;
  const { notifications } = params as { notifications?: unknown };
  if (typeof notifications !== 'object' || notifications === null) return false;
  const { resourceSubscriptions } = notifications as { resourceSubscriptions?: unknown };
  return Array.isArray(resourceSubscriptions) && resourceSubscriptions.every((uri) => typeof uri === 'string');
}

interface OpenedListen {
  /** The request as the SDK is to serve it: its resources are those now subscribed. */
  body: unknown;
  /** The stream ended: its subscriptions are given back. */
  release(): void;
}

/** Subscribes the resources a listen request names; `undefined` when it names none. */
export async function openListenSubscriptions(profile: ProfileHost, body: unknown): Promise<OpenedListen | undefined> {
  if (!isListenWithResources(body)) return undefined;
  const stream: ListenStream = { listen: true };
  // A stream holds as many as a session may; the rest are left out of the acknowledgement.
  const requested = [...new Set(body.params.notifications.resourceSubscriptions as string[])].slice(
    0,
    MAX_SUBSCRIPTIONS_PER_SESSION,
  );
  const outcomes = await Promise.allSettled(
    requested.map(async (uri) => {
      await profile.subscriptions.subscribe(stream, await subscribableOwner(profile, uri), uri);
      return uri;
    }),
  );
  // One no server lists or can subscribe is left out: the acknowledgement is how the client learns it.
  const subscribed = outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
  const { resourceSubscriptions: _requested, ...otherNotifications } = body.params.notifications;
  const notifications =
    subscribed.length === 0 ? otherNotifications : { ...otherNotifications, resourceSubscriptions: subscribed };
  return {
    body: { ...body, params: { ...body.params, notifications } },
    release: () => void profile.subscriptions.sessionClosed(stream),
  };
}
