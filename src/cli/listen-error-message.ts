/**
 * A server command (`serve --http`, `ui`, `mock-llm`) that cannot listen gets Node's `listen EADDRINUSE: address
 * already in use 127.0.0.1:8808`; said instead is what it means and what to do, whichever option named the port.
 */

interface ListenError {
  code?: unknown;
  syscall?: unknown;
  address?: unknown;
  port?: unknown;
}

const REASONS: Record<string, string> = {
  EADDRINUSE: 'the port is already in use; choose another port, or 0 for a free one',
  EACCES: 'this user may not listen on that port; choose one above 1023, or 0 for a free one',
  EADDRNOTAVAIL: 'the address is not one of this machine; choose one it has, such as 127.0.0.1',
};

/** The sentence for an error of `listen`, or undefined for any other error. */
export function listenErrorMessage(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, syscall, address, port } = error as ListenError;
  if (syscall !== 'listen' || typeof code !== 'string') return undefined;
  const reason = REASONS[code];
  if (reason === undefined) return undefined;
  const where = typeof address === 'string' && typeof port === 'number' ? ` ${address}:${port}` : '';
  return `cannot listen on${where}: ${reason}`;
}
