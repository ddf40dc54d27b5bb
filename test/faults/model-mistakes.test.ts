/**
 * The model names an unknown tool, sends arguments that are not JSON (or not an object), or arguments that
 * fail the tool's schema: each gets an error result saying what was wrong, and the loop goes on.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { fixtureServerPath } from '../fixtures/servers/fixture-servers.js';
import { hostConfig, stdioServer } from '../helpers/configs.js';
import { closeHosts, openFaultHost, resultText } from './fault-helpers.js';
import { createTurnProvider, lastToolResults, toolCall } from './turn-provider.js';

afterEach(closeHosts);

describe('mistakes of the model', () => {
  it('answers each with an error result that says what was wrong, and the run goes on', async () => {
    const provider = createTurnProvider([
      () => [
        toolCall('unknown', 'counter__ech', { text: 'x' }),
        toolCall('not-json', 'counter__echo', '{"text": "unterminated'),
        toolCall('not-object', 'counter__echo', '["text"]'),
        toolCall('wrong-type', 'counter__echo', { text: 42 }),
        toolCall('fine', 'counter__echo', { text: 'still works' }),
      ],
      (request) => [{ type: 'text', text: `saw ${lastToolResults(request).length} results` }],
    ]);
    const host = await openFaultHost(
      hostConfig([stdioServer('counter', [fixtureServerPath('counter')])], {
        permissions: { allow: ['counter__*'], ask: [], deny: [] },
      }),
      { provider },
    );
    const started = performance.now();
    const result = await host.run('make mistakes');
    console.info(`4 model mistakes and 1 good call: run of 2 turns in ${Math.round(performance.now() - started)} ms`);
    expect(result.stopReason).toBe('end');
    expect(result.text).toBe('saw 5 results');

    const results = lastToolResults(provider.requests[1]!);
    expect(results.map((entry) => entry.callId)).toEqual(['unknown', 'not-json', 'not-object', 'wrong-type', 'fine']);
    expect(results.map((entry) => entry.isError)).toEqual([true, true, true, true, false]);
    const [unknown, notJson, notObject, wrongType, fine] = results.map(resultText);
    expect(unknown).toContain('Unknown tool "counter__ech"');
    expect(unknown).toContain('counter__echo');
    // The parse error itself, and what to send instead.
    expect(notJson).toMatch(/not valid JSON \(.*Unterminated string.*\)/);
    expect(notObject).toContain('must be a JSON object, not an array');
    // The failing field and what it should have been.
    expect(wrongType).toMatch(
      /^The arguments for counter__echo do not match its input schema.*\n- text: must be string \(got an integer\)\n/s,
    );
    expect(fine).toBe('still works');
  });
});
