/**
 * `mcp-host serve --http` with `"stateless": true` has no standing stream to a client, so a server's log messages
 * during a call go on that call's own stream, before its result, as progress does: at the level the client set with
 * `logging/setLevel` on an earlier request (kept in its session's record), and never on another client's call; one
 * not known to be any one call's, while its client has several in flight, goes on one of their streams only.
 * Official v2 SDK clients in front of the built CLI, the forwarding fixture server behind it.
 */
import type { ClientOptions } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFixtureServersConfig } from '../helpers/fixture-servers-config.js';
import { waitUntil } from '../helpers/gateway-process.js';
import { type LoggingClient, loggingClient } from '../helpers/logging-client.js';
import { temporaryDirectory } from '../helpers/project.js';
import { textOf } from '../helpers/text-of.js';
import { startTokenGateway, type TokenGateway } from '../helpers/token-gateway.js';

let gateway: TokenGateway;

beforeAll(async () => {
  const stateDir = await temporaryDirectory('mcp-host-stateless-logging-');
  const config = await writeFixtureServersConfig(
    { forwarding: { file: 'forwarding.mjs' } },
    { fields: { gateway: { stateless: true, requestsPerMinute: 10_000 } } },
  );
  gateway = await startTokenGateway(config, stateDir);
}, 90_000);

afterAll(async () => {
  await gateway?.stop();
});

async function connect(name: string, options: ClientOptions = {}, to = gateway): Promise<LoggingClient> {
  const connected = loggingClient(name, options);
  await to.connect(connected.client);
  return connected;
}

const log = (client: LoggingClient, level: string, message: string) =>
  client.client.callTool({ name: 'forwarding__log', arguments: { level, message } });

const messages = (client: LoggingClient) => client.logs.map((entry) => entry.data);

describe('mcp-host serve --http, stateless, passing on servers’ log messages', () => {
  it('sends a call’s log messages on its stream, at the level its client set on an earlier request', async () => {
    const quiet = await connect('quiet-client');
    const chatty = await connect('chatty-client');
    await quiet.client.setLoggingLevel('warning');
    // The servers are asked for the most verbose level a client wants: this one's, so they send info messages.
    await chatty.client.setLoggingLevel('debug');

    await log(chatty, 'info', 'chatty info');
    await waitUntil(() => messages(chatty).includes('chatty info'), 'the info message on the chatty client’s call');
    expect(chatty.logs.find((entry) => entry.data === 'chatty info')).toEqual({
      level: 'info',
      logger: 'forwarding/fixture',
      data: 'chatty info',
    });

    await log(quiet, 'info', 'quiet info');
    await log(quiet, 'error', 'quiet error');
    await waitUntil(() => messages(quiet).includes('quiet error'), 'the error message on the quiet client’s call');
    // Its info message, sent on an earlier call's stream, would have come first.
    expect(messages(quiet)).toEqual(['quiet error']);
    // Neither client heard the other's calls.
    expect(messages(chatty)).toEqual(['chatty info']);
  }, 60_000);

  it('never sends a client the log messages of a call another client made meanwhile', async () => {
    const waiting = await connect('waiting-client');
    const logging = await connect('logging-client');
    let progressed!: () => void;
    const begun = new Promise<void>((resolve) => {
      progressed = resolve;
    });
    // A call to the same server that takes a while: its progress says it has begun.
    const slow = waiting.client.callTool(
      { name: 'forwarding__progress', arguments: {} },
      { onprogress: () => progressed() },
    );
    await begun;
    await log(logging, 'error', 'while another call waits');
    await slow;
    expect(messages(waiting)).not.toContain('while another call waits');

    // Alone with the server, the logging client hears its call's messages.
    await log(logging, 'error', 'alone');
    await waitUntil(() => messages(logging).includes('alone'), 'the message of the call made alone');
  }, 60_000);

  it('sends a message not known to be any call’s once, while its client has several calls in flight', async () => {
    const busy = await connect('busy-client', { capabilities: { elicitation: { form: {} } } });
    // Each of two calls asks its user a question, and stays in flight until it is answered.
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    let asked = 0;
    busy.client.setRequestHandler('elicitation/create', async () => {
      asked += 1;
      await answered;
      return { action: 'accept', content: { answer: 'yes' } };
    });
    const questions = [1, 2].map((n) =>
      busy.client.callTool({ name: 'forwarding__ask_user', arguments: { question: `question ${n}` } }),
    );
    await waitUntil(() => asked === 2, 'both calls asking their questions');

    // The stdio server's message does not tell which of the client's three calls it came with.
    await log(busy, 'error', 'said once');
    answer();
    // Each question's answer comes on its call's stream after any log message sent there.
    await Promise.all(questions);
    expect(messages(busy).filter((data) => data === 'said once')).toEqual(['said once']);
  }, 60_000);

  it('holds such a message to the level its client set last, also where its calls in flight began before', async () => {
    const changing = await connect('changing-client', { capabilities: { elicitation: { form: {} } } });
    await changing.client.setLoggingLevel('debug');
    // Each call stays in flight until the test answers its question.
    const answers = new Map<string, () => void>();
    changing.client.setRequestHandler('elicitation/create', async (request) => {
      await new Promise<void>((resolve) => answers.set(request.params.message, resolve));
      return { action: 'accept', content: { answer: 'yes' } };
    });
    const first = changing.client.callTool({
      name: 'forwarding__ask_user',
      arguments: {
        question: 'first',
        then_log: [
          { level: 'info', message: 'below the level set last' },
          { level: 'error', message: 'at the level set last' },
        ],
      },
    });
    const second = changing.client.callTool({ name: 'forwarding__ask_user', arguments: { question: 'second' } });
    await waitUntil(() => answers.size === 2, 'both calls asking their questions');

    // Both calls began at level debug; the client wants errors only from now on.
    await changing.client.setLoggingLevel('error');
    // The stdio server's messages do not tell which of the client's two calls they came with.
    answers.get('Server "forwarding" asks: first')?.();
    await first;
    answers.get('Server "forwarding" asks: second')?.();
    // Each call's answer comes on its stream after any log message sent there.
    await second;
    expect(messages(changing)).toEqual(['at the level set last']);
  }, 60_000);

  it('asks the servers for the most verbose level any client set, one with no request in flight included', async () => {
    // A gateway of its own: no other client has set a level there.
    const own = await startTokenGateway(
      await writeFixtureServersConfig(
        { forwarding: { file: 'forwarding.mjs' } },
        { fields: { gateway: { stateless: true, requestsPerMinute: 10_000 } } },
      ),
      await temporaryDirectory('mcp-host-stateless-logging-'),
    );
    try {
      const idle = await connect('idle-client', {}, own);
      const strict = await connect('strict-client', {}, own);
      await idle.client.setLoggingLevel('debug');
      // The idle client has no request in flight while this one asks for errors only.
      await strict.client.setLoggingLevel('error');
      const asked = await strict.client.callTool({ name: 'forwarding__log_level', arguments: {} });
      expect(textOf(asked)).toBe('debug');

      await log(idle, 'debug', 'idle debug');
      await waitUntil(() => messages(idle).includes('idle debug'), 'the idle client’s debug message');
      expect(messages(strict)).toEqual([]);
    } finally {
      await own.stop();
    }
  }, 90_000);
});
