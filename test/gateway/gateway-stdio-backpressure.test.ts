/**
 * `mcp-host serve --stdio` with a client that misbehaves at volume: one that sends lines the gateway cannot take as
 * fast as it can has the first few reported on stderr and the rest counted in one line, not a line each; one that
 * stops reading stdout has notifications to it dropped past a bound, said once on stderr, while answers still come;
 * one that keeps sending requests without reading has its stdin left unread past that bound, and every request
 * answered in order once it reads.
 */
import type { Writable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { writeFixtureServersConfig } from '../helpers/fixture-servers-config.js';
import { waitUntil } from '../helpers/gateway-process.js';
import { residentMegabytes } from '../helpers/process-memory.js';
import { bundledCliPath, temporaryDirectory } from '../helpers/project.js';
import { answerTo, type RawStdioGateway, rawStdioGateway, toolCallLine } from './raw-stdio-gateway.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

async function forwardingGatewayArgs(): Promise<string[]> {
  const stateDir = await temporaryDirectory('mcp-host-stdio-backpressure-');
  const config = await writeFixtureServersConfig({ forwarding: { file: 'forwarding.mjs' } });
  return [bundledCliPath(), 'serve', '--config', config, '--state-dir', stateDir];
}

const count = (text: string, part: string) => text.split(part).length - 1;

/**
 * One gateway for both: first the flood of lines, whose reports are counted from its start, then a client that stops
 * reading, whose notice is said once whatever came before.
 */
describe('mcp-host serve --stdio, with a client that misbehaves at volume', () => {
  // Its own list: the file's afterEach would stop it after the first test.
  const stopGateway: Array<() => Promise<void>> = [];
  let gateway: RawStdioGateway;
  beforeAll(async () => {
    gateway = await rawStdioGateway(await forwardingGatewayArgs(), stopGateway);
  }, 60_000);
  afterAll(async () => {
    for (const cleanup of stopGateway.splice(0).reverse()) await cleanup().catch(() => undefined);
  });

  it('answers each of a flood of lines it cannot take, but reports only the first few on stderr and counts the rest in one line', async () => {
    const LINES = 3_000;
    for (let line = 0; line < LINES; line += 1) gateway.send(`not json ${line}`);
    await waitUntil(
      () => gateway.answers.filter((answer) => 'error' in (answer as object)).length === LINES,
      'an answer to every line',
    );
    // Each line is either reported by itself or counted, once the flood has paused.
    const reported = () => count(gateway.stderr(), 'Parse error');
    const counted = () =>
      [...gateway.stderr().matchAll(/gateway \(stdio\): ([\d,]+) more lines from the client refused/g)].reduce(
        (sum, match) => sum + Number(match[1]?.replace(/,/g, '')),
        0,
      );
    await waitUntil(() => reported() + counted() === LINES, 'every line reported or counted');
    expect(reported()).toBeGreaterThan(0);
    // The first 20, then about one a second: far fewer than the lines, however slow the machine.
    expect(reported()).toBeLessThan(200);
  }, 60_000);

  it('drops notifications to a client that stops reading stdout past the bound, says so once, and still answers every request', async () => {
    gateway.stopReading();
    // Many notifications from each call: reading stdin stops past the bound too, so the notifications that pass it
    // must come from calls already read.
    const CALLS = 3;
    const TIMES = 30;
    const message = 'x'.repeat(200_000);
    for (let id = 100; id < 100 + CALLS; id += 1) {
      gateway.send(toolCallLine(id, 'forwarding__log', { level: 'info', message, times: TIMES }));
    }
    await waitUntil(() => gateway.stderr().includes('not reading standard output'), 'the notice on stderr', 60_000);
    gateway.readAgain();
    for (let id = 100; id < 100 + CALLS; id += 1) {
      await waitUntil(() => answerTo(gateway.answers, id) !== undefined, `the answer to call ${id}`, 60_000);
    }
    const logs = gateway.answers.filter(
      (answer) => (answer as { method?: string }).method === 'notifications/message',
    ).length;
    expect(logs).toBeLessThan(CALLS * TIMES);
    expect(count(gateway.stderr(), 'not reading standard output')).toBe(1);
  }, 120_000);
});

describe('mcp-host serve --stdio, with a client that sends requests but does not read stdout', () => {
  it('stops reading stdin past the bound, keeps its memory bounded, and answers every request in order once read', async () => {
    const stateDir = await temporaryDirectory('mcp-host-stdio-backpressure-');
    // A budget past the answers' size: the gateway passes them on whole.
    const config = await writeFixtureServersConfig({ big: { file: 'big-result.mjs', maxResultTokens: 1_000_000 } });
    const gateway = await rawStdioGateway(
      [bundledCliPath(), 'serve', '--config', config, '--state-dir', stateDir],
      cleanups,
    );
    const pid = gateway.child.pid as number;
    const stdin = gateway.child.stdin as Writable;
    const before = await residentMegabytes(pid);
    gateway.stopReading();
    const SENDING_INTERVAL_MS = 20;
    // Each answer is 1 MB. A padded request, so that the pipe fills after a few of them once the gateway stops
    // reading.
    const padding = 'p'.repeat(32 * 1024);
    const call = (id: number) => toolCallLine(id, 'big__big_text', { megabytes: 1 }, { _meta: { padding } });
    const paused = () => gateway.stderr().includes('its standard input is left unread');
    let sent = 0;
    // A request every few milliseconds, as a client that keeps sending does (sent all at once, they would all be
    // read before the first answer came), until the gateway says it has stopped reading: past 4 MB of answers
    // waiting, a few dozen at most.
    const stopped = waitUntil(paused, 'the notice that standard input is left unread');
    let noticed = false;
    // Failure is the test's, at the await below.
    stopped.then(
      () => {
        noticed = true;
      },
      () => undefined,
    );
    while (!noticed && sent < 200) {
      gateway.send(call(100 + sent));
      sent += 1;
      await new Promise((resolve) => setTimeout(resolve, SENDING_INTERVAL_MS));
    }
    await stopped;
    // Then as fast as it can: the pipe fills, and stays full.
    while (gateway.send(call(100 + sent))) sent += 1;
    sent += 1;
    expect(stdin.writableLength).toBeGreaterThan(0);
    const whilePaused = await residentMegabytes(pid);
    // Reading again drains stdout, and the gateway reads on: the client's pipe drains in turn.
    const readOn = new Promise((resolve) => stdin.once('drain', resolve));
    gateway.readAgain();
    await readOn;
    const callIds = () =>
      gateway.answers
        .map((answer) => (answer as { id?: unknown }).id)
        .filter((id) => typeof id === 'number' && id >= 100);
    await waitUntil(() => callIds().length === sent, 'an answer to every call', 60_000);
    expect(callIds()).toEqual(Array.from({ length: sent }, (_, index) => 100 + index));
    const last = answerTo(gateway.answers, 100 + sent - 1)?.result as { content: Array<{ text: string }> };
    expect(last.content[0]?.text.length).toBe(1024 * 1024);
    // A few dozen answers at most were on their way when it stopped reading: far from what a client that goes on
    // sending would pile up. (Here: 127 MB before, 148 MB when the pipe filled, 56 calls.)
    expect(whilePaused.peak - before.now).toBeLessThan(200);
  }, 120_000);
});
