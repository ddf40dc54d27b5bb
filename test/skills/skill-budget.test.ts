/**
 * What the skill tools hand the model goes through the output budget like any tool result: a skill's body or file
 * past `maxResultTokens` is cut head and tail with a notice, its whole text is kept, and `read_stored_result`
 * reads the rest.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryAuditSink, type MemoryAuditSink } from '../../src/audit/audit-sink.js';
import { createHost, type Host } from '../../src/host/create-host.js';
import { createScriptedProvider, type ScriptedProvider } from '../../src/testing/scripted-provider.js';
import { lastToolResults, textOf } from '../client-features/helpers.js';
import { parseCut } from '../content/notice.js';
import { hostConfig } from '../helpers/configs.js';
import { writeSkill } from './skill-fixtures.js';

/** Numbered lines, so a head or a tail is told from any other stretch of the text. */
function longText(label: string, lines: number): string {
  return Array.from({ length: lines }, (_, index) => `${label} line ${index}: follow this step with care.`).join('\n');
}

const body = `# Big\n\n${longText('body', 600)}\n`;
const reference = `${longText('reference', 600)}\n`;

let host: Host;
let provider: ScriptedProvider;
let audit: MemoryAuditSink;
beforeAll(async () => {
  const skills = mkdtempSync(join(tmpdir(), 'mcp-host-skills-'));
  writeSkill(skills, {
    name: 'big',
    description: 'A skill longer than the budget.',
    body,
    files: { 'ref.md': reference },
  });
  provider = createScriptedProvider({
    scenarios: [
      {
        turns: [
          { toolCalls: [{ name: 'load_skill', arguments: { name: 'big' } }] },
          { toolCalls: [{ name: 'read_skill_file', arguments: { name: 'big', path: 'ref.md' } }] },
          { text: 'Done.' },
        ],
      },
    ],
  });
  audit = createMemoryAuditSink();
  host = await createHost({
    config: hostConfig([], { skills: [skills], maxResultTokens: 200 }),
    provider,
    auditSink: audit,
    cwd: mkdtempSync(join(tmpdir(), 'mcp-host-project-')),
    stateDir: mkdtempSync(join(tmpdir(), 'mcp-host-state-')),
  });
}, 60_000);
afterAll(async () => {
  await host?.close();
});

/** The whole stored text, read in one call: what follows the line that says it is all of it. */
async function readWhole(id: string): Promise<string> {
  const read = await host.callTool('mcp-host__read_stored_result', { id, offset: 0, length: 1_000_000 });
  const text = textOf(read.result);
  expect(read.result.isError, text).toBe(false);
  const header = /^\[stored result [\w-]+: characters 0 to \d+ of \d+; this is the end of the result\.\]\n/.exec(text);
  expect(header, text.slice(0, 200)).not.toBeNull();
  return text.slice(header![0].length);
}

describe('the skill tools and the output budget', () => {
  it('cuts a long body and a long file with a notice, and the whole of each can be read with read_stored_result', async () => {
    const result = await host.run('Use the big skill');
    expect(result.stopReason).toBe('end');

    const loaded = parseCut(textOf(lastToolResults(provider.requests[1])[0]));
    expect(loaded.subject).toBe('this tool result');
    expect(body.startsWith(loaded.head)).toBe(true);
    expect(body.trimEnd().endsWith(loaded.tail.trimEnd())).toBe(true);
    expect(loaded.resultId).toBeDefined();

    const file = parseCut(textOf(lastToolResults(provider.requests[2])[0]));
    expect(reference.startsWith(file.head)).toBe(true);
    expect(reference.endsWith(file.tail)).toBe(true);
    expect(file.resultId).toBeDefined();

    // Once a result was cut, the model is offered the tool that reads the rest.
    expect(provider.requests[2]!.tools.map((tool) => tool.name)).toContain('mcp-host__read_stored_result');
    expect((await readWhole(loaded.resultId!)).trimEnd()).toBe(body.trimEnd());
    expect(await readWhole(file.resultId!)).toBe(reference);

    const calls = audit.records.filter((record) => record.type === 'tool-call');
    expect(calls.map((record) => [record.tool, record.outcome])).toEqual([
      ['load_skill', 'ok'],
      ['read_skill_file', 'ok'],
      ['mcp-host__read_stored_result', 'ok'],
      ['mcp-host__read_stored_result', 'ok'],
    ]);
  });

  it('passes a body within the budget on whole, with no notice', async () => {
    const skills = mkdtempSync(join(tmpdir(), 'mcp-host-skills-'));
    writeSkill(skills, { name: 'small', description: 'A short skill.', body: '# Small\n\nDo the small thing.\n' });
    const small = await createHost({
      config: hostConfig([], { skills: [skills], maxResultTokens: 200 }),
      provider: createScriptedProvider({ scenarios: [{ turns: [{ text: 'ok' }] }] }),
      auditSink: false,
      cwd: mkdtempSync(join(tmpdir(), 'mcp-host-project-')),
      stateDir: mkdtempSync(join(tmpdir(), 'mcp-host-state-')),
    });
    try {
      const loaded = await small.callTool('load_skill', { name: 'small' });
      expect(textOf(loaded.result)).toBe('# Small\n\nDo the small thing.\n');
    } finally {
      await small.close();
    }
  });
});
