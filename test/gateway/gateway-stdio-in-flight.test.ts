/**
 * `mcp-host serve --stdio` and the client's requests in flight: a client that closes stdin right after its requests
 * (a file piped in) still has every one answered before the gateway exits; one that sends hundreds at once has
 * only a bounded number read ahead of their answers, so the gateway's memory stays bounded, and all answered in
 * order.
 */
import type { Writable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureServerSpec, writeFixtureServersConfig } from '../helpers/fixture-servers-config.js';
import { waitUntil } from '../helpers/gateway-process.js';
import { residentMegabytes } from '../helpers/process-memory.js';
import { bundledCliPath, temporaryDirectory } from '../helpers/project.js';
import { answerTo, type RawStdioGateway, rawStdioGateway, toolCallLine } from './raw-stdio-gateway.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

async function gatewayArgs(name: string, server: FixtureServerSpec): Promise<string[]> {
  const stateDir = await temporaryDirectory('mcp-host-stdio-in-flight-');
  const config = await writeFixtureServersConfig({ [name]: server });
  return [bundledCliPath(), 'serve', '--config', config, '--state-dir', stateDir];
}

const callIds = (answers: unknown[]) =>
  answers.map((answer) => (answer as { id?: unknown }).id).filter((id) => typeof id === 'number' && id >= 100);

describe('mcp-host serve --stdio, when the client closes stdin right after its requests', () => {
  it('answers every request read before it exits, with status 0', async () => {
    const gateway = await rawStdioGateway(await gatewayArgs('counter', { file: 'counter.mjs' }), cleanups);
    const exited = new Promise<number | null>((resolve) => gateway.child.once('exit', resolve));
    const CALLS = 30;
    for (let id = 100; id < 100 + CALLS; id += 1) {
      gateway.send(toolCallLine(id, 'counter__sleep', { ms: 200 }));
    }
    (gateway.child.stdin as Writable).end();
    expect(await exited).toBe(0);
    expect(callIds(gateway.answers).sort((a, b) => Number(a) - Number(b))).toEqual(
      Array.from({ length: CALLS }, (_, index) => 100 + index),
    );
    for (const answer of gateway.answers) expect(answer).toHaveProperty('result');
  }, 60_000);
});

/**
 * One gateway, whose server asks the client a question in each call, for both tests: first the calls past the bound,
 * every one answered, then a question left waiting while stdin closes, which ends the gateway.
 */
describe('mcp-host serve --stdio, with calls that ask the client', () => {
  // Its own list: the file's afterEach would stop it after the first test.
  const stopGateway: Array<() => Promise<void>> = [];
  let gateway: RawStdioGateway;
  beforeAll(async () => {
    gateway = await rawStdioGateway(await gatewayArgs('forwarding', { file: 'forwarding.mjs' }), stopGateway, {
      elicitation: { form: {} },
    });
  }, 60_000);
  afterAll(async () => {
    for (const cleanup of stopGateway.splice(0).reverse()) await cleanup().catch(() => undefined);
  });

  it('still reads the client’s responses with more calls in flight than it reads ahead, so that every call is answered', async () => {
    // Past the bound on requests read ahead: the responses to the first calls' questions come behind the last calls.
    const CALLS = 40;
    gateway.send(
      Array.from({ length: CALLS }, (_, index) =>
        toolCallLine(100 + index, 'forwarding__ask_user', { question: 'Colour?' }),
      ).join('\n'),
    );
    const responded = new Set<unknown>();
    // Answered as they come, as a client does; shorter than the questions' own timeout, which would end a deadlock.
    await waitUntil(
      () => {
        for (const message of gateway.answers as Array<{ id?: unknown; method?: string }>) {
          if (message.method !== 'elicitation/create' || responded.has(message.id)) continue;
          responded.add(message.id);
          gateway.send(
            JSON.stringify({
              jsonrpc: '2.0',
              id: message.id,
              result: { action: 'accept', content: { answer: 'blue' } },
            }),
          );
        }
        return callIds(gateway.answers).length === CALLS;
      },
      'an answer to every call',
      20_000,
    );
    expect(responded.size).toBe(CALLS);
    for (const id of callIds(gateway.answers)) {
      expect(JSON.stringify(answerTo(gateway.answers, id))).toContain('blue');
    }
  }, 60_000);

  it('fails a question still waiting when the client closes stdin, so the call that asked it is answered and the gateway exits', async () => {
    const exited = new Promise<number | null>((resolve) => gateway.child.once('exit', resolve));
    // Only what comes after the first test's messages, and an id it did not use.
    const since = gateway.answers.length;
    const ID = 1_000;
    gateway.send(toolCallLine(ID, 'forwarding__ask_user', { question: 'Colour?' }));
    await waitUntil(
      () =>
        (gateway.answers.slice(since) as Array<{ method?: string }>).some(
          (message) => message.method === 'elicitation/create',
        ),
      'the question put to the client',
    );
    (gateway.child.stdin as Writable).end();
    // The question's own timeout is minutes long: the test's would end first if the gateway waited for it.
    expect(await exited).toBe(0);
    expect(answerTo(gateway.answers, ID)).toBeDefined();
  }, 60_000);
});

describe('mcp-host serve --stdio, given hundreds of requests at once', () => {
  it('reads only a bounded number ahead of their answers, keeps its memory bounded, and answers all in order', async () => {
    // A budget past the answers' size: the gateway passes them on whole.
    const gateway = await rawStdioGateway(
      await gatewayArgs('big', { file: 'big-result.mjs', maxResultTokens: 1_000_000 }),
      cleanups,
    );
    const pid = gateway.child.pid as number;
    const before = await residentMegabytes(pid);
    const CALLS = 300;
    const requests = Array.from({ length: CALLS }, (_, index) =>
      toolCallLine(100 + index, 'big__big_text', { megabytes: 1 }),
    );
    // One write: every request is in the pipe before the first answer can exist.
    gateway.send(requests.join('\n'));
    let peak = before.peak;
    const sampling = setInterval(() => {
      residentMegabytes(pid).then(
        (memory) => {
          peak = Math.max(peak, memory.peak);
        },
        () => undefined,
      );
    }, 50);
    try {
      await waitUntil(() => callIds(gateway.answers).length === CALLS, 'an answer to every call', 90_000);
      peak = Math.max(peak, (await residentMegabytes(pid)).peak);
    } finally {
      clearInterval(sampling);
    }
    expect(callIds(gateway.answers)).toEqual(Array.from({ length: CALLS }, (_, index) => 100 + index));
    // Without the bound all 300 were read at once and the peak rose by about 1.1 GB (128 MB before, 1,221 MB at
    // the peak); with it, by about 300 MB (122 to 128 MB before, 414 to 439 MB at the peak).
    expect(peak - before.now).toBeLessThan(600);
  }, 120_000);
});
