import { describe, expect, it } from 'vitest';
import type { ToolCallPart } from '../../src/providers/types.js';
import {
  DROPPED_WARNINGS_NOTE,
  MAX_CALL_WARNINGS,
  MAX_CONVERSATION_WARNING_CHARS,
} from '../../src/web/call-warning-limit.js';
import { createCallWarnings } from '../../src/web/call-warnings.js';

const call = (id: string): ToolCallPart => ({ type: 'tool-call', id, name: 'server__tool', argumentsText: '{}' });
/** A warning a quarter of the bound long. */
const quarter = (text: string) => text.padEnd(MAX_CONVERSATION_WARNING_CHARS / 4, '.');

describe('the warnings kept with the calls of a conversation', () => {
  it('keeps each once and a few a call', () => {
    const warnings = createCallWarnings();
    const first = call('call_0');
    warnings.keep(first, 'sent once more');
    warnings.keep(first, 'sent once more');
    for (let index = 0; index < MAX_CALL_WARNINGS + 5; index += 1) warnings.keep(first, `warning ${index}`);
    expect(warnings.of(first)).toHaveLength(MAX_CALL_WARNINGS);
    expect(warnings.of(first)?.[0]).toBe('sent once more');
    expect(warnings.of(call('call_0'))).toBeUndefined();
  });

  it('drops the warnings of the calls warned of least lately beyond the bound, with a note in their place', () => {
    const warnings = createCallWarnings();
    const calls = ['a', 'b', 'c', 'd', 'e'].map(call);
    for (const [index, each] of calls.slice(0, 4).entries()) warnings.keep(each, quarter(`call ${index}`));
    // Within the bound: all four kept.
    expect(calls.slice(0, 4).every((each) => warnings.of(each)?.[0]?.startsWith('call '))).toBe(true);
    // The first is warned of again, so the second is the one warned of least lately.
    warnings.keep(calls[0]!, 'again');
    expect(warnings.of(calls[1]!)).toEqual([DROPPED_WARNINGS_NOTE]);
    warnings.keep(calls[4]!, quarter('call 4'));
    expect(warnings.of(calls[2]!)).toEqual([DROPPED_WARNINGS_NOTE]);
    expect(warnings.of(calls[0]!)).toHaveLength(2);
    expect(warnings.of(calls[3]!)?.[0]).toMatch(/^call 3/);
    expect(warnings.of(calls[4]!)?.[0]).toMatch(/^call 4/);
    // A call whose warnings were dropped keeps what it warns of after, after the note.
    warnings.keep(calls[1]!, 'later');
    expect(warnings.of(calls[1]!)).toEqual([DROPPED_WARNINGS_NOTE, 'later']);
  });
});
