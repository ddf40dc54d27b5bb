/**
 * Connecting to a server that wants OAuth first: the first attempt fails with `UnauthorizedError` after starting
 * the authorization; the user's time in the browser is spent here, outside the attempt's connect timeout, and
 * then the server is connected once more with the new token.
 */
import type { AuthorizationSession } from './authorization-session.js';

export async function connectWithAuthorization<T>(
  session: AuthorizationSession,
  attempt: () => Promise<T>,
): Promise<T> {
  try {
    return await connectOnce(session, attempt);
  } catch (error) {
    // A server laid out the 2025-03-26 way is discovered again with the metadata it publishes, then connected.
    if (!(await session.adoptLegacyDiscovery(error))) throw error;
    return connectOnce(session, attempt);
  }
}

async function connectOnce<T>(session: AuthorizationSession, attempt: () => Promise<T>): Promise<T> {
  const generation = session.generation;
  try {
    return await attempt();
  } catch (error) {
    if (!(await session.recover(error, generation))) throw error;
    return attempt();
  }
}
