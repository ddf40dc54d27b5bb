/**
 * The call the code running now makes its requests for, as its caller named it: a chat turn's call, a gateway
 * client's. Requests sent in its name are kept with it while in flight (see pending-requests.ts), and what a server
 * sends with them is told to be that call's (see call-streams.ts).
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const callsMade = new AsyncLocalStorage<object>();

/** Runs `work`, whose calls to servers are made for `call`. */
export function asCallOf<T>(call: object, work: () => T): T {
  return callsMade.run(call, work);
}

/**
 * The call the code running now makes its requests for, as its caller named it (`asCallOf`): whose question a
 * consent asked about that call, or a refusal of it, is.
 */
export function callBeingMade(): object | undefined {
  return callsMade.getStore();
}
