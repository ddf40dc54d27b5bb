/**
 * The rug pull race: a server changes a tool and sends `notifications/tools/list_changed` after the first call,
 * while the model is still choosing its next call from the catalog of the turn. A call to that server must wait
 * for the re-listing and be checked against the new definitions; a changed tool is refused, not run. Real stdio
 * server. A change timed after the call could come before the next turn begins on a loaded machine (the turn then
 * offers the new list, which is safe but not the race), so the tests signal the server to change while the model
 * is answering its second turn, and the model answers once the host has asked the server to re-list.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Host } from '../../src/host/create-host.js';
import type { LlmProvider } from '../../src/providers/types.js';
import { hostConfig, stdioServer } from '../helpers/configs.js';
import { repoRoot } from '../helpers/project.js';
import { waitUntil } from '../helpers/wait-until.js';
import {
  auditOf,
  closeHosts,
  offeredTools,
  openHost,
  recordsOfType,
  resultText,
  scriptedModel,
  toolResultsIn,
} from './consent-helpers.js';

const raceServerPath = join(repoRoot, 'test', 'fixtures', 'consent', 'rug-pull-race-server.mjs');

afterEach(closeHosts);

function stderrOf(host: Host): string {
  return host.servers().find((server) => server.name === 'race')?.stderrTail ?? '';
}

async function raceOnce(relistDelay: string, relistWaitMs?: number) {
  const scripted = scriptedModel([
    { toolCalls: [{ id: 'one', name: 'race__first', arguments: {} }] },
    { toolCalls: [{ id: 'two', name: 'race__fetch_data', arguments: { note: 'hello' } }] },
    { text: 'done' },
  ]);
  let host: Host | undefined;
  // The model answers its second turn only once the host has received list_changed and asked for the new list.
  const provider: LlmProvider = {
    provider: scripted.provider,
    model: scripted.model,
    generate: async (request, options) => {
      if (scripted.requests.length === 1) {
        process.kill(host!.servers().find((server) => server.name === 'race')!.pid!, 'SIGUSR1');
        await waitUntil(() => stderrOf(host!).includes('relist requested'), 'the host to re-list', 20_000, 10);
      }
      return scripted.generate(request, options);
    },
  };
  host = await openHost({
    config: hostConfig([stdioServer('race', [raceServerPath], { env: { RELIST_DELAY_MS: relistDelay } })], {
      permissions: { allow: ['race__*'], ask: [], deny: [] },
    }),
    provider,
    ...(relistWaitMs === undefined ? {} : { relistWaitMs }),
  });
  await host.run('fetch the data');
  return { host, scripted };
}

describe('rug pull race', () => {
  it('a call after list_changed waits for the new list and a changed tool is refused, not run', async () => {
    const { host, scripted } = await raceOnce('300');
    expect(offeredTools(scripted.requests[0])).toEqual(['race__fetch_data', 'race__first']);
    expect(stderrOf(host)).toContain('call first');
    expect(stderrOf(host)).not.toContain('call fetch_data');

    const result = toolResultsIn(scripted.requests[2]).get('two');
    expect(result?.isError).toBe(true);
    expect(resultText(result)).toMatch(/not run/);
    expect(resultText(result)).toMatch(/definition changed/);
    // The next turn does not offer the changed tool either: it waits for the user's approval.
    expect(offeredTools(scripted.requests[2])).toEqual(['race__first']);

    const calls = recordsOfType(await auditOf(host), 'tool-call');
    expect(calls.find((record) => record.callId === 'two')).toMatchObject({
      tool: 'race__fetch_data',
      outcome: 'denied',
    });
  }, 60_000);

  it('a server that never re-lists after list_changed gets no call run (bounded wait)', async () => {
    // A short wait: the server never answers, so any bound proves the same; the default (5 s) would only be waited out.
    const { host, scripted } = await raceOnce('never', 300);
    expect(stderrOf(host)).not.toContain('call fetch_data');
    const result = toolResultsIn(scripted.requests[2]).get('two');
    expect(result?.isError).toBe(true);
    expect(resultText(result)).toMatch(/has not listed them again within 0.3 s/);
  }, 60_000);
});
