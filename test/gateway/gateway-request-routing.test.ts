/**
 * Which client of an HTTP gateway a server's sampling and elicitation requests and log messages reach when two
 * clients share the server: two official v2 SDK clients in front of the built CLI, and a real fixture server behind
 * it over stdio and over Streamable HTTP. A request made during client A's call must never be put to client B (B
 * would read A's data and answer for A): over HTTP the server's request comes on the stream of the call it belongs
 * to and goes to that call's client; over stdio nothing says which call it belongs to, so while calls of both
 * clients are in flight it is refused, saying why. A log message reaches the client whose call it came with, or,
 * when nothing says so, the clients calling that server alone or that asked for the server's log with a level.
 */
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAsksWhenToldOverHttp } from '../helpers/asks-when-told-over-http.js';
import { callWaitsAtGate } from '../helpers/call-waits-at-gate.js';
import { writeFixtureServersConfig } from '../helpers/fixture-servers-config.js';
import { waitUntil } from '../helpers/gateway-process.js';
import { temporaryDirectory, writeConfig } from '../helpers/project.js';
import { textOf } from '../helpers/text-of.js';
import { startTokenGateway, type TokenGateway } from '../helpers/token-gateway.js';

interface TestClient {
  client: Client;
  /** The prompts of the sampling requests and the messages of the elicitations it was asked. */
  asked: string[];
  /** The data of the log messages it received. */
  logs: unknown[];
}

function testClient(name: string): TestClient {
  const made: TestClient = {
    client: new Client({ name, version: '1.0.0' }, { capabilities: { sampling: {}, elicitation: { form: {} } } }),
    asked: [],
    logs: [],
  };
  made.client.setRequestHandler('sampling/createMessage', async (request) => {
    const first = request.params.messages[0]?.content;
    const prompt = first !== undefined && !Array.isArray(first) && first.type === 'text' ? first.text : '?';
    made.asked.push(prompt);
    return { model: `model-of-${name}`, role: 'assistant', content: { type: 'text', text: `you asked "${prompt}"` } };
  });
  made.client.setRequestHandler('elicitation/create', async (request) => {
    made.asked.push(request.params.message);
    return { action: 'accept', content: { answer: `answered by ${name}` } };
  });
  made.client.setNotificationHandler('notifications/message', (notification) => {
    made.logs.push(notification.params.data);
  });
  return made;
}

describe.each(['stdio', 'Streamable HTTP'] as const)(
  'an HTTP gateway with two clients and a server over %s',
  (upstream) => {
    let gateway: TokenGateway | undefined;
    let stopUpstream: (() => Promise<void>) | undefined;
    let eventLog = '';
    const a = testClient('client-A');
    const b = testClient('client-B');

    beforeAll(async () => {
      const stateDir = await temporaryDirectory('mcp-host-routing-state-');
      eventLog = join(stateDir, 'events.log');
      let config: string;
      if (upstream === 'stdio') {
        config = await writeFixtureServersConfig({
          asks: { file: 'asks-when-told.mjs', env: { EVENT_LOG: eventLog } },
        });
      } else {
        const server = await startAsksWhenToldOverHttp(eventLog);
        stopUpstream = server.stop;
        config = await writeConfig({
          mcpServers: { asks: { url: server.url, trust: 'trusted' } },
          permissions: { allow: ['asks__*'] },
        });
      }
      gateway = await startTokenGateway(config, stateDir);
      for (const { client } of [a, b]) await gateway.connect(client);
    }, 90_000);

    afterAll(async () => {
      await gateway?.stop();
      await stopUpstream?.();
    });

    const forgetAsked = () => {
      a.asked.length = 0;
      b.asked.length = 0;
    };

    /**
     * Has A's call wait at the server for `gate`, then B make a call that stays in flight (the newest call to the
     * server), then opens the gate, so that the server asks while calls of both clients are in flight. Answers A's
     * call's result.
     */
    async function askWhileBothCall(
      tool: 'ask_model' | 'ask_user',
      text: string,
      gate: string,
      aside = false,
    ): Promise<string> {
      const argument = tool === 'ask_model' ? { prompt: text, aside } : { question: text };
      const asked = a.client.callTool({ name: `asks__${tool}`, arguments: { ...argument, after: gate } });
      await callWaitsAtGate(eventLog, gate);
      const held = b.client.callTool({ name: 'asks__wait', arguments: { gate: `${gate}-b` } });
      await callWaitsAtGate(eventLog, `${gate}-b`);
      await b.client.callTool({ name: 'asks__open', arguments: { gate } });
      const result = textOf(await asked);
      await b.client.callTool({ name: 'asks__open', arguments: { gate: `${gate}-b` } });
      expect(textOf(await held)).toBe('opened');
      return result;
    }

    it('never puts a sampling request of A’s call to B, while B has a call in flight too', async () => {
      const result = await askWhileBothCall('ask_model', 'the secret of A', 'sample');
      expect(b.asked).toEqual([]);
      if (upstream === 'stdio') {
        expect(result).toContain('sampling failed');
        expect(result).toContain('calls of 2 clients to it are in flight');
        expect(a.asked).toEqual([]);
      } else {
        expect(result).toBe('model model-of-client-A said: you asked "the secret of A"');
        expect(a.asked).toEqual(['the secret of A']);
      }
    }, 60_000);

    it('never puts an elicitation of A’s call to B, while B has a call in flight too', async () => {
      forgetAsked();
      const result = await askWhileBothCall('ask_user', 'the question for A', 'elicit');
      expect(b.asked).toEqual([]);
      if (upstream === 'stdio') {
        expect(result).toContain('elicitation failed');
        expect(result).toContain('calls of 2 clients to it are in flight');
        expect(a.asked).toEqual([]);
      } else {
        expect(JSON.parse(result)).toEqual({ action: 'accept', content: { answer: 'answered by client-A' } });
        expect(a.asked).toEqual(['Server "asks" asks: the question for A']);
      }
    }, 60_000);

    it('never puts a sampling request made while A gets a prompt to B, while B has a call in flight', async () => {
      forgetAsked();
      const got = a.client.getPrompt({ name: 'asks__ask', arguments: { prompt: 'the prompt of A', after: 'prompt' } });
      await callWaitsAtGate(eventLog, 'prompt');
      const held = b.client.callTool({ name: 'asks__wait', arguments: { gate: 'prompt-b' } });
      await callWaitsAtGate(eventLog, 'prompt-b');
      await b.client.callTool({ name: 'asks__open', arguments: { gate: 'prompt' } });
      const content = (await got).messages[0]?.content;
      const text = content !== undefined && !Array.isArray(content) && content.type === 'text' ? content.text : '?';
      await b.client.callTool({ name: 'asks__open', arguments: { gate: 'prompt-b' } });
      expect(textOf(await held)).toBe('opened');
      expect(b.asked).toEqual([]);
      if (upstream === 'stdio') {
        expect(text).toContain('sampling failed');
        expect(text).toContain('calls of 2 clients to it are in flight');
        expect(a.asked).toEqual([]);
      } else {
        expect(text).toBe('model model-of-client-A said: you asked "the prompt of A"');
        expect(a.asked).toEqual(['the prompt of A']);
      }
    }, 60_000);

    it('refuses a request sent outside any call while calls of both clients are in flight', async () => {
      forgetAsked();
      // Over HTTP the server sends it on its standing stream, which no call of the gateway's is behind.
      const result = await askWhileBothCall('ask_model', 'whose is this?', 'aside', true);
      expect(result).toContain('calls of 2 clients to it are in flight');
      expect(a.asked).toEqual([]);
      expect(b.asked).toEqual([]);
    }, 60_000);

    it('asks the calling client when only its calls are in flight, another client being connected', async () => {
      forgetAsked();
      const sampled = await a.client.callTool({ name: 'asks__ask_model', arguments: { prompt: 'alone' } });
      expect(textOf(sampled)).toBe('model model-of-client-A said: you asked "alone"');
      const elicited = await b.client.callTool({ name: 'asks__ask_user', arguments: { question: 'B alone' } });
      expect(JSON.parse(textOf(elicited))).toEqual({ action: 'accept', content: { answer: 'answered by client-B' } });
      expect(a.asked).toEqual(['alone']);
      expect(b.asked).toEqual(['Server "asks" asks: B alone']);
    }, 60_000);

    it('sends a log message of A’s call to A, and to B only when B asked for the server’s log', async () => {
      await a.client.callTool({ name: 'asks__log', arguments: { message: 'private to A' } });
      await waitUntil(() => a.logs.includes('private to A'), 'the log message of its call to reach A');
      // B asks for the server's log: what the server logs outside any call reaches it, on the same stream as anything
      // sent to B before, so the earlier message would have come first.
      await b.client.setLoggingLevel('info');
      await a.client.callTool({ name: 'asks__log_aside', arguments: { message: 'for everyone' } });
      await waitUntil(() => b.logs.includes('for everyone'), 'the log message outside a call to reach B');
      expect(b.logs).not.toContain('private to A');

      // Now that B asked for the server's log, a message that comes with A's call reaches B only where nothing says
      // whose call it came with (over stdio).
      await a.client.callTool({ name: 'asks__log', arguments: { message: 'again for A' } });
      await a.client.callTool({ name: 'asks__log_aside', arguments: { message: 'for everyone again' } });
      await waitUntil(() => b.logs.includes('for everyone again'), 'the second log message outside a call');
      await waitUntil(() => a.logs.includes('again for A'), 'the second log message of its call to reach A');
      if (upstream === 'stdio') expect(b.logs).toContain('again for A');
      else expect(b.logs).not.toContain('again for A');
    }, 60_000);
  },
);
