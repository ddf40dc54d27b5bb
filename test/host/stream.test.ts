/**
 * `host.stream()`: a run as an async iterable of its events, with the real @anthropic-ai/sdk talking HTTP to the
 * mock LLM server and a real MCP server over stdio. Events come in lifecycle order; leaving the loop early or
 * aborting the caller's signal stops the run (no further model request); a provider error ends the iteration
 * with that error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../../src/host/create-host.js';
import type { AgentEvent } from '../../src/loop/events.js';
import { type MockLlmServer, startMockLlmServer } from '../../src/testing/mock-llm/mock-llm-server.js';
import { bundledFixture } from '../helpers/bundled-fixture.js';
import { hostConfig, stdioServer } from '../helpers/configs.js';
import { repoRoot } from '../helpers/project.js';

const flexible = bundledFixture(`${repoRoot}/test/fixtures/host/flexible-server.mjs`);

let mock: MockLlmServer;
let host: Host;

beforeAll(async () => {
  mock = await startMockLlmServer({
    script: {
      fallbackText: 'no scenario matched',
      scenarios: [
        {
          match: '^answer',
          turns: [
            { text: 'Looking.', toolCalls: [{ name: 'timer__answer', arguments: {} }] },
            { text: 'It said {{lastToolResult}}.' },
          ],
        },
        {
          match: '^slow',
          turns: [{ toolCalls: [{ name: 'timer__sleep', arguments: { ms: 60_000 } }] }, { text: 'slept' }],
        },
        { match: '^fail', turns: [{ error: { status: 400, message: 'the scripted request was refused' } }] },
      ],
    },
  });
  host = await createHost({
    config: hostConfig([stdioServer('timer', [flexible], { env: { TOOL_NAMES: '["answer"]' } })], {
      permissions: { allow: ['timer__*'], ask: [], deny: [] },
    }),
    model: 'anthropic:claude-sonnet-4-6',
    baseUrl: mock.url,
    env: { ANTHROPIC_API_KEY: 'test-key' },
    auditSink: false,
  });
});

afterAll(async () => {
  await host?.close();
  await mock?.close();
});

/** Requests the mock received for prompts starting with `prefix`. */
function requestsFor(prefix: string): number {
  return mock.requests.filter((request) => JSON.stringify(request.body).includes(`"${prefix}`)).length;
}

describe('host.stream()', () => {
  it('yields the events of a run in lifecycle order, ending with run-end', async () => {
    const events: AgentEvent[] = [];
    for await (const event of host.stream('answer me')) events.push(event);

    // Text deltas come in any number: one entry per stretch of them.
    const types = events
      .map((event) => event.type)
      .filter((type, index, all) => type !== 'text-delta' || all[index - 1] !== 'text-delta');
    expect(types).toEqual([
      'turn-start',
      'provider-request',
      'text-delta',
      'model-response',
      'tool-call-start',
      // The decision's warning: an unannotated tool may reach outside systems.
      'tool-call-warning',
      'tool-call-request',
      'tool-call-end',
      'turn-end',
      'turn-start',
      'provider-request',
      'text-delta',
      'model-response',
      'turn-end',
      'run-end',
    ]);
    const end = events.find((event) => event.type === 'tool-call-end');
    expect(end).toMatchObject({ name: 'timer__answer', server: 'timer', outcome: 'ok' });
    // What the call says of itself names the answer that made it and its place there, as its start and end do.
    const start = events.find((event) => event.type === 'tool-call-start');
    expect(start).toMatchObject({ turn: 1, index: 0 });
    for (const type of ['tool-call-warning', 'tool-call-request']) {
      expect(events.find((event) => event.type === type)).toMatchObject({ turn: 1, index: 0 });
    }
    expect(events.at(-1)).toMatchObject({ type: 'run-end', stopReason: 'end', text: 'It said server/answer.' });
    const deltas = events.flatMap((event) => (event.type === 'text-delta' ? [event.text] : []));
    expect(deltas.join('')).toBe('Looking.It said server/answer.');
  });

  it('stops the run when the consumer leaves the loop: the call is cancelled and the model is not asked again', async () => {
    const seen: string[] = [];
    for await (const event of host.stream('slow one')) {
      seen.push(event.type);
      if (event.type === 'tool-call-request') break;
    }
    // Leaving waits for the run to end: had the call gone on, the model would have had its result by now.
    expect(seen.at(-1)).toBe('tool-call-request');
    expect(requestsFor('slow one')).toBe(1);
  });

  it("stops the run when the caller's signal aborts, reporting the cancelled call and the aborted run", async () => {
    const controller = new AbortController();
    const events: AgentEvent[] = [];
    for await (const event of host.stream('slow two', { signal: controller.signal })) {
      events.push(event);
      if (event.type === 'tool-call-request') controller.abort(new Error('the user pressed Ctrl-C'));
    }
    expect(events.find((event) => event.type === 'tool-call-end')).toMatchObject({
      name: 'timer__sleep',
      outcome: 'cancelled',
    });
    expect(events.at(-1)).toMatchObject({ type: 'run-end', stopReason: 'aborted' });
    expect(requestsFor('slow two')).toBe(1);
  });

  it('ends the iteration with the provider error, after the events that came before it', async () => {
    const events: AgentEvent[] = [];
    const iterate = async () => {
      for await (const event of host.stream('fail now')) events.push(event);
    };
    await expect(iterate()).rejects.toThrow(/the scripted request was refused/);
    expect(events.map((event) => event.type)).toEqual(['turn-start', 'provider-request']);
    expect(events.some((event) => event.type === 'run-end')).toBe(false);
  });

  it('gives each iteration its own run: a second loop over the same stream starts again', async () => {
    const stream = host.stream('answer twice');
    const ends: string[] = [];
    for (let pass = 0; pass < 2; pass += 1) {
      for await (const event of stream) if (event.type === 'run-end') ends.push(event.text);
    }
    expect(ends).toEqual(['It said server/answer.', 'It said server/answer.']);
  });
});
