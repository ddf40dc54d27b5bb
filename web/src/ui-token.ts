/**
 * This start's token, which every API request carries. It comes once, in the address `mcp-host ui` printed
 * (`?token=`); the page moves it into this origin's storage and out of the address bar. Storage is per origin, port
 * included, so no other server on this machine can read it, where a cookie for 127.0.0.1 would be sent to all of them.
 */
const STORAGE_KEY = 'mcp-host-ui-token';

function takeTokenFromAddress(): void {
  const url = new URL(window.location.href);
  const token = url.searchParams.get('token');
  if (token === null) return;
  window.localStorage.setItem(STORAGE_KEY, token);
  url.searchParams.delete('token');
  window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
}

takeTokenFromAddress();

export function uiToken(): string {
  return window.localStorage.getItem(STORAGE_KEY) ?? '';
}
