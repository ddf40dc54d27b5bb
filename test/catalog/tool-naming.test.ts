import { describe, expect, it } from 'vitest';
import {
  assignToolNames,
  MAX_TOOL_NAME_LENGTH,
  sanitiseName,
  TOOL_NAME_PATTERN,
  type ToolNameEntry,
} from '../../src/catalog/tool-naming.js';

const PROVIDER_SAFE = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;

function nameOf(result: ReadonlyArray<{ server: string; tool: string; name: string }>, server: string, tool: string) {
  const found = result.find((entry) => entry.server === server && entry.tool === tool);
  if (found === undefined) throw new Error(`no entry for ${server}/${tool}`);
  return found.name;
}

function expectWellFormed(result: ReadonlyArray<{ name: string }>, count: number): void {
  expect(result).toHaveLength(count);
  expect(new Set(result.map((entry) => entry.name)).size).toBe(count);
  for (const { name } of result) {
    expect(name).toMatch(PROVIDER_SAFE);
    expect(name).toMatch(TOOL_NAME_PATTERN);
    expect(name.length).toBeLessThanOrEqual(MAX_TOOL_NAME_LENGTH);
  }
}

/** A deterministic shuffle, so a failure can be reproduced. */
function shuffle<T>(items: ReadonlyArray<T>, seed: number): T[] {
  const copy = [...items];
  let state = seed;
  for (let index = copy.length - 1; index > 0; index--) {
    state = (state * 1103515245 + 12345) % 2147483648;
    const other = state % (index + 1);
    [copy[index], copy[other]] = [copy[other]!, copy[index]!];
  }
  return copy;
}

const LONG_TOOL = `query_${'x'.repeat(84)}`;

const MIXED: ToolNameEntry[] = [
  { server: 'fs', tool: 'read_file' },
  { server: 'fs', tool: 'a.b' },
  { server: 'fs', tool: 'a/b' },
  { server: 'fs', tool: 'a b' },
  { server: 'fs', tool: 'a_b' },
  { server: 'fs', tool: 'a-b' },
  { server: '9lives', tool: 'meow' },
  { server: 'db', tool: LONG_TOOL },
  { server: 'db', tool: `${LONG_TOOL}y` },
  { server: 'intl', tool: 'résumé' },
  { server: 'intl', tool: '検索' },
  { server: 'intl', tool: '😀' },
  { server: 'github', tool: 'search' },
  { server: 'gitlab', tool: 'search' },
  { server: 'a__b', tool: 'c' },
  { server: 'a', tool: 'b__c' },
];

describe('assignToolNames', () => {
  it('keeps names that need no change in their plain form', () => {
    const result = assignToolNames([
      { server: 'fs', tool: 'read_file' },
      { server: 'my-server', tool: 'Get-Item_2' },
    ]);
    expect(result).toEqual([
      { server: 'fs', tool: 'read_file', name: 'fs__read_file' },
      { server: 'my-server', tool: 'Get-Item_2', name: 'my-server__Get-Item_2' },
    ]);
  });

  it('replaces characters providers refuse with _ and adds no hash when nothing clashes', () => {
    expect(nameOf(assignToolNames([{ server: 'fs', tool: 'a.b' }]), 'fs', 'a.b')).toBe('fs__a_b');
    const spaced = assignToolNames([{ server: 'MCP SQLite Server', tool: 'read_query' }]);
    expect(nameOf(spaced, 'MCP SQLite Server', 'read_query')).toBe('MCP_SQLite_Server__read_query');
  });

  it('gives a sanitised name a stable 6-hex hash suffix only on a real clash', () => {
    const dotted = nameOf(
      assignToolNames([
        { server: 'fs', tool: 'a.b' },
        { server: 'fs', tool: 'a/b' },
      ]),
      'fs',
      'a.b',
    );
    expect(dotted).toMatch(/^fs__a_b_[0-9a-f]{6}$/);
    // The same hash whatever else clashes with it.
    expect(nameOf(assignToolNames(MIXED), 'fs', 'a.b')).toBe(dotted);
  });

  it('keeps a dot, a slash and a space apart from each other and from the plain underscore and dash', () => {
    const result = assignToolNames(MIXED);
    const names = ['a.b', 'a/b', 'a b', 'a_b', 'a-b'].map((tool) => nameOf(result, 'fs', tool));
    expect(new Set(names).size).toBe(5);
    expect(nameOf(result, 'fs', 'a_b')).toBe('fs__a_b');
    expect(nameOf(result, 'fs', 'a-b')).toBe('fs__a-b');
    expect(nameOf(result, 'fs', 'a/b')).toMatch(/^fs__a_b_[0-9a-f]{6}$/);
    expect(nameOf(result, 'fs', 'a b')).toMatch(/^fs__a_b_[0-9a-f]{6}$/);
  });

  it('prefixes a name that starts with a digit', () => {
    expect(nameOf(assignToolNames(MIXED), '9lives', 'meow')).toBe('_9lives__meow');
  });

  it('truncates a long name to 64 characters, with a hash when a near twin cuts to the same name', () => {
    const alone = nameOf(assignToolNames([{ server: 'db', tool: LONG_TOOL }]), 'db', LONG_TOOL);
    expect(alone).toBe(`db__${LONG_TOOL}`.slice(0, 64));
    const result = assignToolNames(MIXED);
    const long = nameOf(result, 'db', LONG_TOOL);
    const twin = nameOf(result, 'db', `${LONG_TOOL}y`);
    expect(long).toHaveLength(64);
    expect(twin).toHaveLength(64);
    expect(long).toMatch(/^db__query_x+_[0-9a-f]{6}$/);
    expect(long).not.toBe(twin);
  });

  it('keeps a name of exactly 64 valid characters plain', () => {
    const tool = 't'.repeat(64 - 'db__'.length);
    expect(nameOf(assignToolNames([{ server: 'db', tool }]), 'db', tool)).toBe(`db__${tool}`);
    const longer = `${tool}t`;
    expect(nameOf(assignToolNames([{ server: 'db', tool: longer }]), 'db', longer)).toHaveLength(64);
  });

  it('replaces unicode characters, one underscore per character', () => {
    const result = assignToolNames(MIXED);
    expect(nameOf(result, 'intl', 'résumé')).toBe('intl__r_sum_');
    expect(nameOf(result, 'intl', '検索')).toBe('intl____');
    expect(nameOf(result, 'intl', '😀')).toBe('intl___');
  });

  it('separates the same tool name on two servers', () => {
    const result = assignToolNames(MIXED);
    expect(nameOf(result, 'github', 'search')).toBe('github__search');
    expect(nameOf(result, 'gitlab', 'search')).toBe('gitlab__search');
  });

  it('hashes both sides when two plain names clash', () => {
    const result = assignToolNames(MIXED);
    const left = nameOf(result, 'a__b', 'c');
    const right = nameOf(result, 'a', 'b__c');
    expect(left).toMatch(/^a__b__c_[0-9a-f]{6}$/);
    expect(right).toMatch(/^a__b__c_[0-9a-f]{6}$/);
    expect(left).not.toBe(right);
  });

  it('lengthens a hash that clashes with a plain name, leaving the plain name alone', () => {
    const pair: ToolNameEntry[] = [
      { server: 'fs', tool: 'x.y' },
      { server: 'fs', tool: 'x_y' },
    ];
    const hashed = nameOf(assignToolNames(pair), 'fs', 'x.y');
    expect(hashed).toMatch(/^fs__x_y_[0-9a-f]{6}$/);
    const squatter = hashed.slice('fs__'.length);
    const result = assignToolNames([...pair, { server: 'fs', tool: squatter }]);
    expect(nameOf(result, 'fs', squatter)).toBe(hashed);
    expect(nameOf(result, 'fs', 'x_y')).toBe('fs__x_y');
    expect(nameOf(result, 'fs', 'x.y')).toMatch(/^fs__x_y_[0-9a-f]{8}$/);
    expect(nameOf(result, 'fs', 'x.y').startsWith(hashed)).toBe(true);
  });

  it('returns well-formed, unique names sorted by name', () => {
    const result = assignToolNames(MIXED);
    expectWellFormed(result, MIXED.length);
    const names = result.map((entry) => entry.name);
    expect(names).toEqual([...names].sort());
  });

  it('gives the same output for shuffled input', () => {
    const expected = assignToolNames(MIXED);
    for (let seed = 1; seed <= 25; seed++) {
      expect(assignToolNames(shuffle(MIXED, seed))).toEqual(expected);
    }
  });

  it('handles many awkward names at once', () => {
    const entries: ToolNameEntry[] = [];
    const awkward = ['.', '/', ' ', '', '-', '0', 'é', '__', 'a.b.c', 'x'.repeat(100), '\u0000', '"', '\\'];
    for (const server of ['s', 's.s', '1', '']) {
      for (const tool of awkward) entries.push({ server, tool });
    }
    const result = assignToolNames(entries);
    expectWellFormed(result, entries.length);
    expect(assignToolNames(shuffle(entries, 99))).toEqual(result);
  });

  it("lets the server listed first keep a clashing name, so adding a server never renames another's tools", () => {
    const first = [
      { server: 'my server', tool: 'ping' },
      { server: 'a', tool: 'b__c' },
    ];
    const before = assignToolNames(first, { serverOrder: ['my server', 'a'] });
    expect(nameOf(before, 'my server', 'ping')).toBe('my_server__ping');
    expect(nameOf(before, 'a', 'b__c')).toBe('a__b__c');
    const added = [...first, { server: 'my_server', tool: 'ping' }, { server: 'a__b', tool: 'c' }];
    const after = assignToolNames(shuffle(added, 7), { serverOrder: ['my server', 'a', 'my_server', 'a__b'] });
    expect(nameOf(after, 'my server', 'ping')).toBe('my_server__ping');
    expect(nameOf(after, 'a', 'b__c')).toBe('a__b__c');
    expect(nameOf(after, 'my_server', 'ping')).toMatch(/^my_server__ping_[0-9a-f]{6}$/);
    expect(nameOf(after, 'a__b', 'c')).toMatch(/^a__b__c_[0-9a-f]{6}$/);
  });

  it('rejects a tool listed twice for one server', () => {
    expect(() =>
      assignToolNames([
        { server: 'fs', tool: 'read' },
        { server: 'fs', tool: 'read' },
      ]),
    ).toThrow(/listed twice/);
  });
});

describe('sanitiseName', () => {
  it('replaces invalid characters and fixes the first character', () => {
    expect(sanitiseName('my.server v2')).toBe('my_server_v2');
    expect(sanitiseName('2fa')).toBe('_2fa');
    expect(sanitiseName('-x')).toBe('_-x');
    expect(sanitiseName('ok_name-1')).toBe('ok_name-1');
  });
});
