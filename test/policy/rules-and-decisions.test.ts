import { describe, expect, it } from 'vitest';
import type { PermissionRules } from '../../src/config/types.js';
import { decideToolCall } from '../../src/policy/decide-tool-call.js';
import { matchesGlob } from '../../src/policy/glob.js';
import { checkRules, findMatchingRule, isCatchAllPattern } from '../../src/policy/permission-rules.js';
import { isSafeToRetry } from '../../src/policy/tool-annotations.js';

function rules(partial: Partial<PermissionRules>): PermissionRules {
  return { allow: [], ask: [], deny: [], ...partial };
}

describe('glob patterns over namespaced names', () => {
  it('anchors at both ends and lets * span the namespace separator', () => {
    expect(matchesGlob('fs__*', 'fs__read_file')).toBe(true);
    expect(matchesGlob('fs__*', 'myfs__read_file')).toBe(false);
    expect(matchesGlob('*__delete_*', 'github__delete_repo')).toBe(true);
    expect(matchesGlob('*__delete_*', 'github__delete')).toBe(false);
    expect(matchesGlob('fs__read', 'fs__read_file')).toBe(false);
    expect(matchesGlob('*', 'a__b')).toBe(true);
  });

  it('matches ? as exactly one character and everything else literally', () => {
    expect(matchesGlob('fs__rea?', 'fs__read')).toBe(true);
    expect(matchesGlob('fs__rea?', 'fs__rea')).toBe(false);
    expect(matchesGlob('a.b__(x)+', 'a.b__(x)+')).toBe(true);
    expect(matchesGlob('a.b__x', 'aXb__x')).toBe(false);
    expect(matchesGlob('??', '\u{1F600}x')).toBe(true);
  });

  it('backtracks over several stars, and a pattern full of stars cannot stall the host', () => {
    expect(matchesGlob('*a*b*c', 'xxaxxbxxbxc')).toBe(true);
    expect(matchesGlob('*a*b*c', 'xxaxxbxxbxcd')).toBe(false);
    expect(matchesGlob('a**', 'a')).toBe(true);
    expect(matchesGlob('', '')).toBe(true);
    expect(matchesGlob('', 'a')).toBe(false);
    // A backtracking regular expression would take on the order of 200^40 steps here.
    const hostile = `${'a*'.repeat(40)}b`;
    expect(matchesGlob(hostile, 'a'.repeat(200))).toBe(false);
    expect(matchesGlob(hostile, `${'a'.repeat(200)}b`)).toBe(true);
  });
});

describe('permission rules', () => {
  it('deny beats allow whatever order they were written in', () => {
    const decision = decideToolCall({
      toolName: 'fs__write_file',
      serverName: 'fs',
      trust: 'trusted',
      annotations: { readOnlyHint: true },
      rules: rules({ allow: ['fs__*'], deny: ['fs__write_*'] }),
    });
    expect(decision).toMatchObject({ action: 'deny', source: 'rule', rule: 'fs__write_*' });
    expect(decision.reason).toBe('Denied by rule "fs__write_*" in permissions.deny.');
    // The rest of the server stays allowed by the broader rule.
    const read = decideToolCall({
      toolName: 'fs__read_file',
      serverName: 'fs',
      trust: 'untrusted',
      rules: rules({ allow: ['fs__*'], deny: ['fs__write_*'] }),
    });
    expect(read).toMatchObject({ action: 'allow', source: 'rule', rule: 'fs__*' });
  });

  it('ask beats allow', () => {
    const decision = decideToolCall({
      toolName: 'fs__move_file',
      serverName: 'fs',
      trust: 'trusted',
      annotations: { readOnlyHint: true },
      rules: rules({ allow: ['fs__*'], ask: ['*__move_*'] }),
    });
    expect(decision).toMatchObject({ action: 'ask', source: 'rule', rule: '*__move_*' });
  });

  it('a deny rule beats an "always allow" the user gave earlier', () => {
    const decision = decideToolCall({
      toolName: 'fs__write_file',
      serverName: 'fs',
      trust: 'trusted',
      rules: rules({ deny: ['fs__write_*'] }),
      alwaysAllowed: new Set(['fs__write_file']),
    });
    expect(decision.action).toBe('deny');
  });

  it('findMatchingRule reports the list and pattern that decided', () => {
    expect(findMatchingRule(rules({ allow: ['x__*'], deny: ['x__rm'] }), 'x__rm')).toEqual({
      list: 'deny',
      pattern: 'x__rm',
    });
    expect(findMatchingRule(rules({ allow: ['x__*'] }), 'y__rm')).toBeUndefined();
  });

  it('warns about patterns that match no tool, and about catch-alls in allow', () => {
    const warnings = checkRules(rules({ allow: ['*', 'fs__read_*'], ask: ['github__*'], deny: ['write_file'] }), [
      'fs__read_file',
      'fs__write_file',
    ]);
    expect(warnings).toHaveLength(3);
    expect(warnings.find((warning) => warning.includes('"github__*"'))).toMatch(
      /permissions\.ask pattern "github__\*" matches no tool/,
    );
    expect(warnings.find((warning) => warning.includes('"write_file"'))).toMatch(/namespaced as server__tool/);
    expect(warnings.find((warning) => warning.includes('"*"'))).toMatch(
      /permissions\.allow has "\*".*every tool of every server/,
    );
    expect(
      checkRules(rules({ allow: ['fs__read_*'], deny: ['fs__write_*'] }), ['fs__read_file', 'fs__write_file']),
    ).toEqual([]);
  });

  it('does not report patterns that may name a tool of a server not started, and still reports the others', () => {
    const patterns = rules({
      allow: ['github__list_*', 'git*__read', 'fs__raed_*', 'read_file'],
      ask: ['*__push'],
      deny: ['github__*'],
    });
    const tools = ['fs__read_file'];
    expect(checkRules(patterns, tools, { serversNotStarted: ['github'] })).toEqual([
      expect.stringMatching(/permissions\.allow pattern "fs__raed_\*" matches no tool/),
      // An allow rule without a server part can name no tool at all, started or not.
      expect.stringMatching(/permissions\.allow pattern "read_file" has no server part, so it never matches/),
    ]);
    // The same rules with every server started: each unmatched one is reported.
    expect(checkRules(patterns, tools)).toHaveLength(6);
  });

  it('takes the server part of a pattern by the servers there are, not at its first __', () => {
    const patterns = rules({
      allow: ['team__notes__read', 'team__n*__list', 'team__x*'],
      ask: ['team__notes__*'],
      deny: ['te?m__notes__delete'],
    });
    // team__notes is not started: every pattern that may name its tools is left alone.
    expect(checkRules(patterns, ['fs__read_file'], { serversNotStarted: ['team__notes'] })).toEqual([
      expect.stringMatching(/permissions\.allow pattern "team__x\*" matches no tool/),
    ]);
    // team is not started and team__notes is: a name spelt out as team__notes__… is team__notes', not team's,
    // wildcards in the spelling or not.
    const started = [{ toolName: 'team__notes__add', serverName: 'team__notes', originalToolName: 'add' }];
    expect(checkRules(patterns, started, { serversNotStarted: ['team'] })).toEqual([
      expect.stringMatching(/permissions\.deny pattern "te\?m__notes__delete" matches no tool/),
      expect.stringMatching(/permissions\.allow pattern "team__notes__read" matches no tool/),
    ]);
  });

  it('reports a pattern with a wildcard in its server name unless it may name a tool of a server left out', () => {
    const patterns = rules({ ask: ['t*__x', 'te?m__no?es__x', 'te*m__notes__z'], deny: ['te?m__notes__x'] });
    const started = [{ toolName: 'team__notes__add', serverName: 'team__notes', originalToolName: 'add' }];
    // team left out: te?m__notes__x names only team__notes__x, team__notes' (started, without it). The others may
    // name a tool of team: x, noXes__x, or Xm__notes__z (the star reading `am__X`).
    expect(checkRules(patterns, started, { serversNotStarted: ['team'] })).toEqual([
      expect.stringMatching(/permissions\.deny pattern "te\?m__notes__x" matches no tool/),
    ]);
    // team__notes left out: each may name one of its tools.
    const fs = [{ toolName: 'fs__read', serverName: 'fs', originalToolName: 'read' }];
    expect(checkRules(patterns, fs, { serversNotStarted: ['team', 'team__notes'] })).toEqual([]);
    // Only a server none of them can begin with is left out: each is reported.
    expect(checkRules(patterns, started, { serversNotStarted: ['calculator'] })).toHaveLength(4);
  });

  it('knows a started server that lists no tools as the owner of the names it begins', () => {
    const patterns = rules({ deny: ['team__notes__x'] });
    const fs = [{ toolName: 'fs__read', serverName: 'fs', originalToolName: 'read' }];
    // Unknown as a server, team__notes__x could be the tool notes__x of team, which was left out.
    expect(checkRules(patterns, fs, { serversNotStarted: ['team'] })).toEqual([]);
    // team__notes was started and has no tool x: the name is its, and the rule matches nothing.
    expect(checkRules(patterns, fs, { serversNotStarted: ['team'], servers: ['fs', 'team', 'team__notes'] })).toEqual([
      expect.stringMatching(/permissions\.deny pattern "team__notes__x" matches no tool/),
    ]);
  });

  it('says an allow rule written as a tool name alone never matches, even where a server has that tool', () => {
    const tools = [{ toolName: 'fs__read_file', serverName: 'fs', originalToolName: 'read_file' }];
    expect(checkRules(rules({ allow: ['read_file'], deny: ['read_file'] }), tools)).toEqual([
      'permissions.allow pattern "read_file" has no server part, so it never matches: allow rules name a tool as ' +
        'server__tool (e.g. "fs__read_file"), so that another server\'s tool of the same name is not allowed too.',
    ]);
  });

  it('recognises catch-all patterns', () => {
    expect(isCatchAllPattern('*')).toBe(true);
    expect(isCatchAllPattern('**')).toBe(true);
    expect(isCatchAllPattern('*__*')).toBe(true);
    expect(isCatchAllPattern('fs__*')).toBe(false);
    expect(isCatchAllPattern('__')).toBe(false);
  });
});

describe('annotations and trust', () => {
  const noRules = rules({});

  it('an untrusted server claiming readOnlyHint still asks, and says why', () => {
    const decision = decideToolCall({
      toolName: 'notes__read',
      serverName: 'notes',
      trust: 'untrusted',
      annotations: { readOnlyHint: true, openWorldHint: false },
      rules: noRules,
    });
    expect(decision).toMatchObject({ action: 'ask', source: 'trust' });
    expect(decision.reason).toMatch(/says it is read-only, but server notes is untrusted/);
    // Its openWorldHint: false spares it the open-world warning (information only); the call still asks.
    expect(decision.warnings.join(' ')).not.toMatch(/outside this machine/);
  });

  it('a trusted server readOnlyHint allows, with the annotation as the reason', () => {
    const decision = decideToolCall({
      toolName: 'fs__read_file',
      serverName: 'fs',
      trust: 'trusted',
      annotations: { readOnlyHint: true, openWorldHint: false },
      rules: noRules,
    });
    expect(decision).toMatchObject({ action: 'allow', source: 'annotation', warnings: [] });
    expect(decision.reason).toBe('fs__read_file is read-only (readOnlyHint) on trusted server fs.');
  });

  it('a tool that says nothing is treated as destructive and asks', () => {
    const decision = decideToolCall({ toolName: 'fs__rm', serverName: 'fs', trust: 'trusted', rules: noRules });
    expect(decision).toMatchObject({ action: 'ask', source: 'annotation' });
    expect(decision.reason).toMatch(/destructiveHint is unset/);
  });

  it('a non-destructive writer still asks, by default', () => {
    const decision = decideToolCall({
      toolName: 'fs__append',
      serverName: 'fs',
      trust: 'trusted',
      annotations: { destructiveHint: false, openWorldHint: false },
      rules: noRules,
    });
    expect(decision).toMatchObject({ action: 'ask', source: 'default' });
  });

  it('warns when a tool may reach outside systems (openWorldHint true or unset)', () => {
    const declared = decideToolCall({
      toolName: 'web__fetch',
      serverName: 'web',
      trust: 'trusted',
      annotations: { readOnlyHint: true, openWorldHint: true },
      rules: noRules,
    });
    expect(declared.action).toBe('allow');
    expect(declared.warnings).toEqual([
      'web__fetch may reach systems outside this machine (openWorldHint is true or unset).',
    ]);
    const closed = decideToolCall({
      toolName: 'fs__stat',
      serverName: 'fs',
      trust: 'trusted',
      annotations: { readOnlyHint: true, openWorldHint: false },
      rules: noRules,
    });
    expect(closed.warnings).toEqual([]);
  });

  it('an "always allow" answer allows, with its own source', () => {
    const decision = decideToolCall({
      toolName: 'fs__rm',
      serverName: 'fs',
      trust: 'untrusted',
      rules: noRules,
      alwaysAllowed: new Set(['fs__rm']),
    });
    expect(decision).toMatchObject({ action: 'allow', source: 'remembered' });
  });

  it('marks only trusted idempotent or read-only tools safe to retry', () => {
    expect(isSafeToRetry({ idempotentHint: true }, 'trusted')).toBe(true);
    expect(isSafeToRetry({ readOnlyHint: true }, 'trusted')).toBe(true);
    expect(isSafeToRetry({ idempotentHint: true }, 'untrusted')).toBe(false);
    expect(isSafeToRetry({}, 'trusted')).toBe(false);
    const decision = decideToolCall({
      toolName: 'kv__put',
      serverName: 'kv',
      trust: 'trusted',
      annotations: { idempotentHint: true },
      rules: noRules,
    });
    expect(decision.safeToRetry).toBe(true);
  });
});
