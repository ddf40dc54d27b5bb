/**
 * A client that sends an HTTP request over a plain socket, reads until the answer has begun, and then stops reading,
 * as a frozen browser tab or a stuck client does: what the server does meanwhile (keep everything, or drop the
 * stream) shows once it reads again.
 */
import { connect, type Socket } from 'node:net';

export interface StalledReader {
  /** What arrived before reading stopped (the answer's status line and headers, at least). */
  head: string;
  /**
   * Reads again, until the server ends the connection or `stop` shows in what arrived; says which, and with `keep`
   * gives everything read again (what arrived in `head` is not repeated).
   */
  readAgain(
    stop: RegExp,
    keep?: 'everything',
  ): Promise<{ ended: boolean; stopSeen: boolean; bytes: number; text?: string }>;
  close(): void;
}

export async function connectAndStopReading(port: number, request: string, begun: RegExp): Promise<StalledReader> {
  const socket: Socket = connect(port, '127.0.0.1');
  socket.setEncoding('latin1');
  let text = '';
  let bytes = 0;
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: string) => {
      text += chunk;
      bytes += chunk.length;
      if (!begun.test(text)) return;
      socket.off('data', onData);
      socket.off('error', reject);
      socket.pause();
      resolve();
    };
    socket.on('data', onData);
    socket.once('error', reject);
    socket.write(request);
  });
  return {
    head: text,
    readAgain(stop, keep) {
      return new Promise((resolve) => {
        // Unless asked for everything, only the tail is kept: what matters is whether `stop` arrived.
        let tail = '';
        const kept: string[] = [];
        const finish = (ended: boolean, stopSeen: boolean) => {
          socket.removeAllListeners('data');
          resolve({ ended, stopSeen, bytes, ...(keep === undefined ? {} : { text: kept.join('') }) });
        };
        socket.on('data', (chunk: string) => {
          bytes += chunk.length;
          if (keep !== undefined) kept.push(chunk);
          tail = (tail + chunk).slice(-100_000);
          if (stop.test(tail)) finish(false, true);
        });
        socket.once('end', () => finish(true, false));
        socket.once('close', () => finish(true, false));
        socket.once('error', () => finish(true, false));
        socket.resume();
      });
    },
    close() {
      socket.destroy();
    },
  };
}

/** POSTs `body` to `url` with `headers` (and its length), and stops reading once the answer's headers have arrived. */
export function postAndStopReading(url: string, headers: Record<string, string>, body: string): Promise<StalledReader> {
  const { host, port, pathname } = new URL(url);
  const request = [
    `POST ${pathname} HTTP/1.1`,
    `Host: ${host}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    `Content-Length: ${Buffer.byteLength(body)}`,
    '',
    body,
  ].join('\r\n');
  return connectAndStopReading(Number(port), request, /\r\n\r\n/);
}
