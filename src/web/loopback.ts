/** The UI serves this machine only: the addresses it may listen on, and how a browser names them. */
import { isIP } from 'node:net';

/** Whether `address` is a loopback address or `localhost` (127.0.0.0/8, ::1). */
export function isLoopbackAddress(address: string): boolean {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  if (bare.toLowerCase() === 'localhost') return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  if (isIP(bare) === 6) return bare === '::1' || bare === '0:0:0:0:0:0:0:1';
  return false;
}

/** The `host:port` forms a browser may send in `Host` for a server listening on `address:port`. */
export function acceptedHosts(address: string, port: number): Set<string> {
  const bare = address.startsWith('[') ? address.slice(1, -1) : address;
  const names = new Set([`localhost:${port}`]);
  names.add(isIP(bare) === 6 ? `[${bare}]:${port}` : `${bare}:${port}`);
  return names;
}
