/**
 * This start's token, which every API request carries. It comes once, in the address `mcp-host ui` printed
 * (`?token=`); the page moves it out of the address bar and into this origin's storage. Storage is per origin, port
 * included, so no other server on this machine can read it, where a cookie for 127.0.0.1 would be sent to all of them.
 * A token in the address replaces the kept one only once the UI accepts it: any site may send the browser to this
 * address with a wrong one, which must not log the page out.
 */
const STORAGE_KEY = 'mcp-host-ui-token';

/** The token in the address, taken out of it (the history entry keeps the rest of the address). */
function takeTokenFromAddress(): string | undefined {
  const url = new URL(window.location.href);
  const token = url.searchParams.get('token');
  if (token === null) return undefined;
  url.searchParams.delete('token');
  window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
  return token;
}

async function settleToken(offered: string | undefined): Promise<string> {
  const kept = window.localStorage.getItem(STORAGE_KEY);
  if (offered === undefined || offered === kept) return kept ?? '';
  const answer = await fetch('/api/state', {
    credentials: 'omit',
    headers: { accept: 'application/json', authorization: `Bearer ${offered}` },
  }).catch(() => undefined);
  if (answer?.status === 401 && kept !== null) return kept;
  window.localStorage.setItem(STORAGE_KEY, offered);
  return offered;
}

const token = settleToken(takeTokenFromAddress());

/** The token to send, once the one in the address (if any) has been checked. */
export function uiToken(): Promise<string> {
  return token;
}
