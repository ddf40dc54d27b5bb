/**
 * What a server sends outside any call is handled in no caller's asynchronous context, whoever started the
 * connection: a stdio server reads in the context it was spawned in, and a Streamable HTTP server's standing stream
 * in that of the send that opened it, so a server started (or started again) during someone's call would hand its
 * later messages to handlers as that caller's, with that caller's call named (see connections/call-streams.ts).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ServerConfig } from '../../src/config/types.js';
import { asCallOf, callBeingMade } from '../../src/connections/call-being-made.js';
import { ServerConnection } from '../../src/connections/server-connection.js';
import { startAsksWhenToldOverHttp } from '../helpers/asks-when-told-over-http.js';
import { httpServer, stdioServer } from '../helpers/configs.js';
import { fixtureServer } from '../helpers/project.js';
import { waitUntil } from '../helpers/wait-until.js';

/** A caller's own context, as a chat turn or a gateway client keeps one. */
const caller = new AsyncLocalStorage<string>();
const CALL = { name: 'the caller’s call' };

interface Heard {
  caller: string | undefined;
  call: object | undefined;
}

const heardNow = (): Heard => ({ caller: caller.getStore(), call: callBeingMade() });

/** Connects in the caller's context, its call named; then `sendAside` makes the server send something, outside. */
async function heardAfterConnectingAsCaller(
  config: ServerConfig,
  method: 'notifications/tools/list_changed' | 'notifications/message',
  sendAside: (connection: ServerConnection) => Promise<unknown>,
): Promise<Heard[]> {
  const heard: Heard[] = [];
  const connection = new ServerConnection(config, {
    configureClient: (client) => client.setNotificationHandler(method, () => void heard.push(heardNow())),
  });
  try {
    expect(await caller.run('the caller', () => asCallOf(CALL, () => connection.connect()))).toBe(true);
    await sendAside(connection);
    await waitUntil(() => heard.length > 0, `${method} to be handled`);
    return heard;
  } finally {
    await connection.close();
  }
}

describe('a message a server sends outside any call', () => {
  it('from a stdio server started during a call is handled as no caller’s', async () => {
    const heard = await heardAfterConnectingAsCaller(
      stdioServer('changing', [fixtureServer('unseen-change.mjs')]),
      'notifications/tools/list_changed',
      (connection) => connection.callTool('change', {}, { timeoutMs: 10_000 }),
    );
    expect(heard[0]).toEqual({ caller: undefined, call: undefined });
  });

  it('on the standing stream of a Streamable HTTP server connected during a call is handled as no caller’s', async () => {
    const server = await startAsksWhenToldOverHttp(join(await mkdtemp(join(tmpdir(), 'mcp-host-reads-')), 'events'));
    try {
      const heard = await heardAfterConnectingAsCaller(
        httpServer('asking', server.url),
        'notifications/message',
        (connection) => connection.callTool('log_aside', { message: 'aside' }, { timeoutMs: 10_000 }),
      );
      expect(heard[0]).toEqual({ caller: undefined, call: undefined });
    } finally {
      await server.stop();
    }
  });
});
