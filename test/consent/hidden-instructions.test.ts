/**
 * Hidden instructions in tool definitions: HTML comments, plain "ignore previous instructions … send
 * ~/.aws/credentials", and `<IMPORTANT>` past the scan budgets (deep, many strings, very long) are flagged, past a
 * budget as "could not check", and withheld on an untrusted server. A corpus of published poisoning examples is
 * all flagged; real descriptions of well-known servers raise no false alarm.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Host } from '../../src/host/create-host.js';
import { describeHiddenContent } from '../../src/policy/hidden-content.js';
import { findHiddenContentInTool } from '../../src/policy/tool-hidden-content.js';
import { closeHosts, faultFixture, openFaultHost } from '../faults/fault-helpers.js';
import { hostConfig, stdioServer } from '../helpers/configs.js';

interface Example {
  source: string;
  description: string;
}

const corpus = (name: string): Example[] =>
  JSON.parse(readFileSync(new URL(`../fixtures/tool-descriptions/${name}.json`, import.meta.url), 'utf8'));

const flagsOf = (description: string) =>
  findHiddenContentInTool({ name: 'tool', description, inputSchema: { type: 'object' } });

describe('the poisoning corpus', () => {
  it('flags every published poisoning example', () => {
    const poisoned = corpus('poisoned');
    expect(poisoned.length).toBeGreaterThanOrEqual(30);
    const missed = poisoned.filter((example) => flagsOf(example.description).length === 0).map((e) => e.source);
    expect(missed).toEqual([]);
  });

  it('raises no alarm on real descriptions of well-known servers', () => {
    const benign = corpus('benign');
    expect(benign.length).toBeGreaterThanOrEqual(30);
    const alarms = benign
      .map((example) => ({ source: example.source, flags: describeHiddenContent(flagsOf(example.description)) }))
      .filter((entry) => entry.flags.length > 0);
    expect(alarms).toEqual([]);
  });
});

describe('an untrusted server hiding instructions', () => {
  let host: Host;
  const diagnostics: string[] = [];

  beforeAll(async () => {
    host = await openFaultHost(hostConfig([stdioServer('hostile', [faultFixture('hostile-server.mjs'), 'poisoned'])]), {
      onDiagnostic: (line) => diagnostics.push(line),
    });
  }, 60_000);

  afterAll(closeHosts);

  it('offers only the clean tool', () => {
    expect(host.catalog().resolve('hostile__echo')).toBeDefined();
    for (const name of ['html_comment', 'plain_injection', 'deep_important', 'many_strings', 'long_description']) {
      expect(host.catalog().resolve(`hostile__${name}`), name).toBeUndefined();
      expect(host.withheldReason(`hostile__${name}`), name).toContain('hidden or suspicious content');
    }
  });

  it('says what it found, and "could not check" past a budget', () => {
    const about = (name: string) => diagnostics.find((line) => line.includes(`tool hostile__${name} `)) ?? '';
    expect(about('html_comment')).toContain('html-comment');
    expect(about('plain_injection')).toContain('tells the model to ignore');
    expect(about('plain_injection')).toContain('credential or configuration file');
    expect(about('deep_important')).toContain('could not check');
    expect(about('deep_important')).toContain('deeper than 32 levels');
    expect(about('many_strings')).toContain('more than 5,000 strings');
    expect(about('long_description')).toContain('could not check: the text is');
    expect(about('echo')).toBe('');
  });
});
