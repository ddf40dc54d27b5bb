/** `resources read URI` finds the server whose template could produce the URI, in linear time whatever the template. */
import { describe, expect, it } from 'vitest';
import { matchesTemplate } from '../../src/cli/commands/resources.js';

describe('a URI against a resource template', () => {
  it('matches variables as non-empty runs and every other character literally', () => {
    expect(matchesTemplate('demo://resource/dynamic/text/7', 'demo://resource/dynamic/text/{id}')).toBe(true);
    expect(matchesTemplate('demo://resource/dynamic/text/', 'demo://resource/dynamic/text/{id}')).toBe(false);
    expect(matchesTemplate('a.b(c)/x', 'a.b(c)/{x}')).toBe(true);
    expect(matchesTemplate('aXb(c)/x', 'a.b(c)/{x}')).toBe(false);
  });

  it('a template of a hundred variables cannot stall the command on a near miss', () => {
    // A backtracking engine would try on the order of 300^100 ways to split the URI before saying no.
    const template = `x${'{v}a'.repeat(100)}!`;
    expect(matchesTemplate(`x${'a'.repeat(300)}`, template)).toBe(false);
    expect(matchesTemplate(`x${'ba'.repeat(100)}!`, template)).toBe(true);
  });
});
