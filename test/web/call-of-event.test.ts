import { describe, expect, it } from 'vitest';
import { callOfEvent } from '../../web/src/pages/call-of-event.js';

describe('callOfEvent', () => {
  const calls = [
    { callId: 'call_0', turn: 1, end: {} },
    { callId: 'call_1', turn: 1, end: {} },
    { callId: 'call_0', turn: 2 },
    { callId: 'call_0', turn: 2 },
  ];

  it("pairs an event with a call of its own answer, never an earlier answer's call of the same id", () => {
    expect(callOfEvent(calls, 'call_0', 1)).toBe(0);
    expect(callOfEvent(calls, 'call_0', 2)).toBe(2);
    // An event that does not name its answer is about the latest answer that made a call of that id.
    expect(callOfEvent(calls, 'call_0')).toBe(2);
    expect(callOfEvent(calls, 'call_1')).toBe(1);
    expect(callOfEvent(calls, 'call_1', 2)).toBe(-1);
    expect(callOfEvent(calls, 'call_9')).toBe(-1);
  });

  it('answers an id made twice in one answer in order', () => {
    const first = calls.map((call, index) => (index === 2 ? { ...call, end: {} } : call));
    expect(callOfEvent(first, 'call_0', 2)).toBe(3);
    const both = first.map((call, index) => (index === 3 ? { ...call, end: {} } : call));
    expect(callOfEvent(both, 'call_0', 2)).toBe(3);
  });

  it('pairs an event that names its place with the call at that place, whichever of an id ended first', () => {
    const placed = [
      { callId: 'call_0', turn: 1, index: 0 },
      { callId: 'call_0', turn: 1, index: 1 },
    ];
    expect(callOfEvent(placed, 'call_0', 1, 1)).toBe(1);
    expect(callOfEvent(placed, 'call_0', undefined, 1)).toBe(1);
    expect(callOfEvent(placed, 'call_0', 1, 0)).toBe(0);
    expect(callOfEvent(placed, 'call_0', 1, 2)).toBe(-1);
  });
});
