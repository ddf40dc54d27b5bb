import { describe, expect, it } from 'vitest';
import { messageWithCause } from '../../src/connections/message-with-cause.js';
import { freePort } from '../helpers/free-port.js';

describe('messageWithCause', () => {
  it("adds why a real fetch failed: Node's own error for a refused connection", async () => {
    const port = await freePort();
    const error = await fetch(`http://127.0.0.1:${port}/mcp`).catch((caught: unknown) => caught);
    expect((error as Error).message).toBe('fetch failed');
    expect(messageWithCause(error)).toBe(`fetch failed (connect ECONNREFUSED 127.0.0.1:${port})`);
  });

  it('takes the first of several addresses tried, and a code where there is no message', () => {
    const attempts = new AggregateError([
      new Error('connect ECONNREFUSED ::1:80'),
      new Error('connect ECONNREFUSED 127.0.0.1:80'),
    ]);
    expect(messageWithCause(new TypeError('fetch failed', { cause: attempts }))).toBe(
      'fetch failed (connect ECONNREFUSED ::1:80)',
    );
    const coded = Object.assign(new AggregateError([]), { code: 'ECONNREFUSED' });
    expect(messageWithCause(new TypeError('fetch failed', { cause: coded }))).toBe('fetch failed (ECONNREFUSED)');
  });

  it('leaves a message alone that has no cause or already says it, and ends on a cycle', () => {
    expect(messageWithCause(new Error('plain'))).toBe('plain');
    expect(messageWithCause('text')).toBe('text');
    const inner = new Error('connect ECONNREFUSED 127.0.0.1:80');
    expect(messageWithCause(new Error('failed: connect ECONNREFUSED 127.0.0.1:80', { cause: inner }))).toBe(
      'failed: connect ECONNREFUSED 127.0.0.1:80',
    );
    const looped = new Error('outer');
    const other = new Error('inner', { cause: looped });
    (looped as { cause?: unknown }).cause = other;
    expect(messageWithCause(looped)).toMatch(/^outer( \(inner\))?$/);
  });

  it('bounds a long reason', () => {
    const text = messageWithCause(new Error('fetch failed', { cause: new Error('x'.repeat(1_000)) }));
    expect(text.length).toBeLessThan(320);
    expect(text.endsWith('…)')).toBe(true);
  });
});
