/**
 * A 2026-07-28 request names its log level in its `_meta`, and its level counts for the level the gateway asks its
 * servers for as a stateless client's does: a request asking for more than the servers were asked for (by another
 * client) has them asked for its level before its call runs, and each client still hears only what it asked for.
 * The official v2 SDK clients in front of the built CLI, one pinned to that revision and one in a session, the
 * forwarding fixture server (which answers the level it was last asked for) behind it.
 */
import { type ClientOptions, LOG_LEVEL_META_KEY } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFixtureServersConfig } from '../helpers/fixture-servers-config.js';
import { waitUntil } from '../helpers/gateway-process.js';
import { type LoggingClient, loggingClient } from '../helpers/logging-client.js';
import { temporaryDirectory } from '../helpers/project.js';
import { textOf } from '../helpers/text-of.js';
import { startTokenGateway, type TokenGateway } from '../helpers/token-gateway.js';

let gateway: TokenGateway;

beforeAll(async () => {
  const stateDir = await temporaryDirectory('mcp-host-modern-log-level-');
  const config = await writeFixtureServersConfig(
    { forwarding: { file: 'forwarding.mjs' } },
    { fields: { gateway: { requestsPerMinute: 10_000 } } },
  );
  gateway = await startTokenGateway(config, stateDir);
}, 90_000);

afterAll(async () => {
  await gateway?.stop();
});

async function connect(name: string, options: ClientOptions = {}): Promise<LoggingClient> {
  const connected = loggingClient(name, options);
  await gateway.connect(connected.client);
  return connected;
}

/** A call of the forwarding server's `log`, its request asking for `asked` and more severe when one is given. */
const log = (to: LoggingClient, level: string, message: string, asked?: string) =>
  to.client.callTool({
    name: 'forwarding__log',
    arguments: { level, message },
    ...(asked === undefined ? {} : { _meta: { [LOG_LEVEL_META_KEY]: asked } }),
  });

const levelAsked = async (to: LoggingClient) =>
  textOf(await to.client.callTool({ name: 'forwarding__log_level', arguments: {} }));

describe('a 2026-07-28 request’s log level and the level the gateway asks its servers for', () => {
  it('has the servers asked for its level before its call, where another client had them asked for less', async () => {
    const strict = await connect('strict-client');
    await strict.client.setLoggingLevel('error');
    expect(await levelAsked(strict)).toBe('error');
    const modern = await connect('modern-client', { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    expect(modern.client.getNegotiatedProtocolVersion()).toBe('2026-07-28');

    await log(modern, 'debug', 'debug the request asked for', 'debug');
    await log(modern, 'info', 'info on a request asking for errors', 'error');
    await log(modern, 'error', 'the last', 'error');
    await waitUntil(() => modern.logs.some((entry) => entry.data === 'the last'), 'the last call’s message');
    // A call's messages come on its stream before its answer: any of the earlier calls' would have come first.
    expect(modern.logs.map((entry) => entry.data)).toEqual(['debug the request asked for', 'the last']);
    expect(await levelAsked(strict)).toBe('debug');

    // The session that asked for errors hears none of the more verbose messages its servers now send (it hears a
    // stdio server's errors during other clients' calls too: nothing tells them apart).
    await log(strict, 'info', 'info during the session’s call');
    await log(strict, 'error', 'error during the session’s call');
    await waitUntil(
      () => strict.logs.some((entry) => entry.data === 'error during the session’s call'),
      'the session’s error message',
    );
    expect(strict.logs.map((entry) => entry.level)).toEqual(strict.logs.map(() => 'error'));
  }, 60_000);
});
