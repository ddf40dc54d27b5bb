/**
 * Anthropic prompt caching across a 3-turn run through the real host: the tools and system parts
 * are byte-identical on every request, no request carries more than 4 `cache_control` breakpoints
 * (the API rejects a fifth), the history only grows, and each request marks the block the previous
 * request marked last, so it reads the cache entry the previous one wrote.
 */
import { describe, expect, it } from 'vitest';
import { parseScript } from '../../../src/testing/index.js';
import { useMockLlmServer } from '../../helpers/mock-llm.js';
import { PROVIDER_WIRES, SERVER_NAME, startFixtureHost } from './provider-wires.js';

interface Block {
  type: string;
  cache_control?: unknown;
  [key: string]: unknown;
}
interface Body {
  tools: Block[];
  system: Block[];
  messages: { role: string; content: Block[] }[];
}

const script = parseScript({
  scenarios: [
    {
      match: 'three turns',
      turns: [
        { toolCalls: [{ name: `${SERVER_NAME}__echo`, arguments: { text: 'one' } }] },
        { text: 'Now adding.', toolCalls: [{ name: `${SERVER_NAME}__add`, arguments: { a: 2, b: 3 } }] },
        { expect: { lastToolResultIsError: false }, text: 'Done: {{lastToolResult}}' },
      ],
    },
  ],
});

function withoutCacheControl(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (key, item: unknown) => (key === 'cache_control' ? undefined : item)));
}

describe('anthropic cache_control breakpoints over a 3-turn run', () => {
  const mock = useMockLlmServer({ script });

  it('keeps tools and system byte-identical, at most 4 breakpoints, rolling forward', async () => {
    const fixture = await startFixtureHost(PROVIDER_WIRES.anthropic, mock.url);
    try {
      const result = await fixture.host.run('Do it in three turns');
      expect(result.stopReason, result.message).toBe('end');
      expect(result.turns).toBe(3);
    } finally {
      await fixture.close();
    }

    const bodies = mock.requests.map((request) => request.body as Body);
    expect(bodies).toHaveLength(3);
    const [first] = bodies as [Body, Body, Body];
    for (const body of bodies) {
      expect(JSON.stringify(body.tools)).toBe(JSON.stringify(first.tools));
      expect(JSON.stringify(body.system)).toBe(JSON.stringify(first.system));
      expect(JSON.stringify(body).match(/"cache_control"/g)?.length ?? 0).toBeLessThanOrEqual(4);
      // The prefix breakpoints: the last tool and the system prompt.
      expect(body.tools.at(-1)?.cache_control).toEqual({ type: 'ephemeral' });
      expect(body.tools.slice(0, -1).some((tool) => 'cache_control' in tool)).toBe(false);
      expect(body.system.at(-1)?.cache_control).toEqual({ type: 'ephemeral' });
      // The rolling one: the last block of the last message.
      expect(body.messages.at(-1)?.content.at(-1)?.cache_control).toEqual({ type: 'ephemeral' });
    }
    expect(bodies.map((body) => body.messages.length)).toEqual([1, 3, 5]);
    expect(JSON.stringify(bodies[2]).match(/"cache_control"/g)).toHaveLength(4);

    for (const [index, body] of bodies.entries()) {
      const previous = bodies[index - 1];
      if (!previous) continue;
      // Only appended to: the previous request's messages are this one's first messages.
      expect(withoutCacheControl(body.messages.slice(0, previous.messages.length))).toEqual(
        withoutCacheControl(previous.messages),
      );
      // And the block the previous request marked last is marked again here (the cache read).
      const previousLast = previous.messages.length - 1;
      expect(body.messages[previousLast]?.content.at(-1)?.cache_control).toEqual({ type: 'ephemeral' });
    }
  });
});
