/**
 * Raw sockets that send the start of a request and then nothing more, as a client sending its headers (or body) a
 * byte at a time does: what a listener must not hold for long, nor in any number. Each remembers when it opened and
 * when the listener closed it.
 */
import { connect, type Socket } from 'node:net';

export interface HeldSocket {
  socket: Socket;
  openedAt: number;
  /** Resolves with the time the listener closed the socket. */
  closed: Promise<number>;
  closedAt?: number;
}

/** Opens `count` sockets to `url`'s host and port, one after another, each sending `start` once connected. */
export async function openHeldSockets(url: string, count: number, start: string): Promise<HeldSocket[]> {
  const { hostname, port } = new URL(url);
  const held: HeldSocket[] = [];
  for (let index = 0; index < count; index += 1) {
    const socket = connect({ host: hostname, port: Number(port) });
    // The listener resets or drops these: either way it is the close that counts.
    socket.on('error', () => undefined);
    socket.on('data', () => undefined);
    const entry: HeldSocket = {
      socket,
      openedAt: 0,
      closed: new Promise<number>((resolve) =>
        socket.once('close', () => {
          entry.closedAt = Date.now();
          resolve(entry.closedAt);
        }),
      ),
    };
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => {
        entry.openedAt = Date.now();
        socket.write(start, () => resolve());
      });
      socket.once('error', reject);
    });
    held.push(entry);
  }
  return held;
}

/** Resolves once `count` of the sockets have been closed. */
export function someClosed(held: readonly HeldSocket[], count: number): Promise<void> {
  let closed = 0;
  return new Promise((resolve) => {
    if (count === 0) resolve();
    for (const entry of held) {
      void entry.closed.then(() => {
        closed += 1;
        if (closed === count) resolve();
      });
    }
  });
}

export function destroyAll(held: readonly HeldSocket[]): void {
  for (const entry of held) entry.socket.destroy();
}
