/**
 * The key a 2026-07-28 client's log level is kept under between its requests tells callers apart whatever their names
 * hold: a space in a principal or an OAuth client's name cannot make two callers one, so one's level never stands for
 * another's.
 */
import { expect, it } from 'vitest';
import { modernClientKey } from '../../src/gateway/modern-client-key.js';

it('keeps callers apart whose names, run together with a space, read the same', () => {
  expect(modernClientKey(undefined, 'a b', 'c')).not.toBe(modernClientKey(undefined, 'a', 'b c'));
  expect(modernClientKey(undefined, 'a', undefined)).not.toBe(modernClientKey(undefined, 'a', ''));
  expect(modernClientKey(undefined, 'a b', 'c')).toBe(modernClientKey(undefined, 'a b', 'c'));
});

it('keeps the stdio connection apart from any caller over HTTP', () => {
  expect(modernClientKey('stdio', undefined, undefined)).not.toBe(modernClientKey(undefined, 'stdio', undefined));
});
