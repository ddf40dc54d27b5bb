import { describe, expect, it } from 'vitest';
import { parsePartialArguments } from '../../web/src/app-views/partial-json.js';

describe('parsePartialArguments', () => {
  const whole = '{"city":"Paris","days":[1,2],"units":{"temp":"C"},"ok":true}';

  it('reads every prefix of streamed arguments as far as it is whole, ending with the whole value', () => {
    const seen = [...whole].map((_, length) => parsePartialArguments(whole.slice(0, length + 1)));
    expect(seen.at(-1)).toEqual(JSON.parse(whole));
    expect(parsePartialArguments('{"city":"Par')).toEqual({ city: 'Par' });
    expect(parsePartialArguments('{"city":"Paris","da')).toEqual({ city: 'Paris' });
    expect(parsePartialArguments('{"city":"Paris","days":[1,')).toEqual({ city: 'Paris', days: [1] });
    expect(parsePartialArguments('{"city":"Paris","days":[1,2],"units":{"te')).toEqual({
      city: 'Paris',
      days: [1, 2],
      units: {},
    });
    expect(parsePartialArguments('{"city":"Paris","ok":tr')).toEqual({ city: 'Paris' });
    expect(parsePartialArguments('{"quote":"a \\"b')).toEqual({ quote: 'a "b' });
    // Every prefix gives an object or nothing, never a throw or another kind of value.
    for (const value of seen) expect(value === undefined || typeof value === 'object').toBe(true);
  });

  it('gives nothing for text that is not the start of an object', () => {
    expect(parsePartialArguments('')).toBeUndefined();
    expect(parsePartialArguments('[1,2')).toBeUndefined();
    expect(parsePartialArguments('nonsense')).toBeUndefined();
  });
});
