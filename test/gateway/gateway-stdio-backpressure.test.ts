/**
 * `mcp-host serve --stdio` with a client that misbehaves at volume: one that sends lines the gateway cannot take as
 * fast as it can has the first few reported on stderr and the rest counted in one line, not a line each; one that
 * stops reading stdout has notifications to it dropped past a bound, said once on stderr, while answers still come.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { waitUntil } from '../helpers/gateway-process.js';
import { bundledCliPath, fixtureServer, temporaryDirectory, writeConfig } from '../helpers/project.js';
import { answerTo, rawStdioGateway } from './raw-stdio-gateway.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

async function forwardingGatewayArgs(): Promise<string[]> {
  const stateDir = await temporaryDirectory('mcp-host-stdio-backpressure-');
  const config = await writeConfig({
    mcpServers: {
      forwarding: { command: process.execPath, args: [fixtureServer('forwarding.mjs')], trust: 'trusted' },
    },
    permissions: { allow: ['forwarding__*'] },
  });
  return [bundledCliPath(), 'serve', '--config', config, '--state-dir', stateDir];
}

const count = (text: string, part: string) => text.split(part).length - 1;

describe('mcp-host serve --stdio, given a flood of lines it cannot take', () => {
  it('answers each, but reports only the first few on stderr and counts the rest in one line', async () => {
    const gateway = await rawStdioGateway(await forwardingGatewayArgs(), cleanups);
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
});

describe('mcp-host serve --stdio, with a client that stops reading stdout', () => {
  it('drops notifications past the bound, says so once, and still answers every request', async () => {
    const gateway = await rawStdioGateway(await forwardingGatewayArgs(), cleanups);
    gateway.stopReading();
    const CALLS = 40;
    const message = 'x'.repeat(1_000_000);
    for (let id = 100; id < 100 + CALLS; id += 1) {
      gateway.send(
        JSON.stringify({
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params: { name: 'forwarding__log', arguments: { level: 'info', message } },
        }),
      );
    }
    await waitUntil(() => gateway.stderr().includes('not reading standard output'), 'the notice on stderr', 60_000);
    gateway.readAgain();
    for (let id = 100; id < 100 + CALLS; id += 1) {
      await waitUntil(() => answerTo(gateway.answers, id) !== undefined, `the answer to call ${id}`, 60_000);
    }
    const logs = gateway.answers.filter(
      (answer) => (answer as { method?: string }).method === 'notifications/message',
    ).length;
    expect(logs).toBeLessThan(CALLS);
    expect(count(gateway.stderr(), 'not reading standard output')).toBe(1);
  }, 120_000);
});
