/**
 * Skills in a real run: the scripted model, real MCP servers over stdio. Only names and descriptions go into the
 * system prompt; `load_skill` returns the body and `read_skill_file` a file, both audited; system prompt and tools
 * stay byte-identical across turns; an active skill's allowed-tools narrow what runs and never widen it.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMemoryAuditSink, type MemoryAuditSink } from '../../src/audit/audit-sink.js';
import { createHost, type Host } from '../../src/host/create-host.js';
import type { ToolResultPart } from '../../src/providers/types.js';
import type { ScriptTurn } from '../../src/testing/script-types.js';
import { createScriptedProvider, type ScriptedProvider } from '../../src/testing/scripted-provider.js';
import { hostConfig, stdioServer } from '../helpers/configs.js';
import { exampleServer } from '../helpers/project.js';
import { publishedSkills, writeSkill } from './skill-fixtures.js';

interface Opened {
  host: Host;
  provider: ScriptedProvider;
  audit: MemoryAuditSink;
  diagnostics: string[];
}

async function open(turns: ScriptTurn[], extra: Partial<Parameters<typeof hostConfig>[1]> = {}, stateDir?: string) {
  const provider = createScriptedProvider({ scenarios: [{ turns }] });
  const audit = createMemoryAuditSink();
  const diagnostics: string[] = [];
  const host = await createHost({
    config: hostConfig([stdioServer('calculator', [exampleServer('calculator')], { trust: 'trusted' })], extra),
    provider,
    auditSink: audit,
    cwd: mkdtempSync(join(tmpdir(), 'mcp-host-project-')),
    stateDir: stateDir ?? mkdtempSync(join(tmpdir(), 'mcp-host-state-')),
    onDiagnostic: (message) => diagnostics.push(message),
  });
  return { host, provider, audit, diagnostics } satisfies Opened;
}

function toolResultText(provider: ScriptedProvider, request: number): string {
  const last = provider.requests[request]!.messages.at(-1)!;
  if (last.role !== 'tool') throw new Error('expected tool results');
  return last.results
    .flatMap((result) => result.content)
    .map((part: ToolResultPart) => (part.type === 'text' ? part.text : ''))
    .join('\n');
}

describe('progressive disclosure with published skills', () => {
  it('lists names and descriptions only, loads the body and a file on demand, audits both', async () => {
    const { host, provider, audit } = await open(
      [
        { toolCalls: [{ name: 'load_skill', arguments: { name: 'test-specialist' } }] },
        {
          toolCalls: [
            { name: 'read_skill_file', arguments: { name: 'test-specialist', path: 'references/testing_patterns.md' } },
          ],
        },
        { text: 'Done.' },
      ],
      { skills: [publishedSkills] },
    );
    try {
      const result = await host.run('Write tests for the parser');
      expect(result.stopReason).toBe('end');
      const first = provider.requests[0]!;
      expect(first.system).toContain('# Skills');
      expect(first.system).toContain('- test-specialist: This skill should be used when writing test cases');
      expect(first.system).toContain('- codebase-documenter: ');
      expect(first.system).toContain('- tech-debt-analyzer: ');
      const body = readFileSync(join(publishedSkills, 'test-specialist', 'SKILL.md'), 'utf8');
      expect(first.system).not.toContain('## Core Capabilities');
      expect(first.tools.map((tool) => tool.name)).toEqual(
        expect.arrayContaining(['load_skill', 'read_skill_file', 'calculator__add_numbers']),
      );

      const loaded = toolResultText(provider, 1);
      expect(loaded.startsWith('# Test Specialist')).toBe(true);
      expect(body.endsWith(loaded) || body.trimEnd().endsWith(loaded.trimEnd())).toBe(true);
      expect(loaded).not.toContain('name: test-specialist');
      expect(toolResultText(provider, 2)).toBe(
        readFileSync(join(publishedSkills, 'test-specialist', 'references', 'testing_patterns.md'), 'utf8'),
      );

      // Byte-stable across turns, so provider prompt caches hold.
      for (const request of provider.requests.slice(1)) {
        expect(request.system).toBe(first.system);
        expect(JSON.stringify(request.tools)).toBe(JSON.stringify(first.tools));
      }

      const calls = audit.records.filter((record) => record.type === 'tool-call');
      expect(calls.map((record) => [record.tool, record.outcome])).toEqual([
        ['load_skill', 'ok'],
        ['read_skill_file', 'ok'],
      ]);
      const pins = audit.records.filter(
        (record) => record.type === 'trust-change' && record.server.startsWith('skill:'),
      );
      expect(pins.map((record) => record.server).sort()).toEqual([
        'skill:codebase-documenter',
        'skill:tech-debt-analyzer',
        'skill:test-specialist',
      ]);
    } finally {
      await host.close();
    }
  });

  it('never runs a script inside a skill: reading it returns its text', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'mcp-host-skills-'));
    const marker = join(folder, 'ran');
    writeSkill(folder, {
      name: 'setup',
      description: 'Set the project up.',
      body: 'Run scripts/setup.sh first.',
      files: { 'scripts/setup.sh': `#!/bin/sh\ntouch ${marker}\n` },
    });
    const { host, provider } = await open(
      [
        { toolCalls: [{ name: 'load_skill', arguments: { name: 'setup' } }] },
        { toolCalls: [{ name: 'read_skill_file', arguments: { name: 'setup', path: 'scripts/setup.sh' } }] },
        { text: 'Read it.' },
      ],
      { skills: [folder] },
    );
    try {
      await host.run('set up');
      expect(toolResultText(provider, 2)).toContain(`touch ${marker}`);
      expect(existsSync(marker)).toBe(false);
    } finally {
      await host.close();
    }
  });
});

describe('allowed-tools', () => {
  const skillsWith = (allowed: string) => {
    const folder = mkdtempSync(join(tmpdir(), 'mcp-host-skills-'));
    writeSkill(folder, { name: 'adding', description: 'Add numbers.', extra: `allowed-tools: ${allowed}` });
    return folder;
  };

  it('refuses a tool the active skill does not name, and lets the named one through the policy', async () => {
    const { host, provider, audit } = await open(
      [
        { toolCalls: [{ name: 'calculator__multiply', arguments: { a: 2, b: 3 } }] },
        { toolCalls: [{ name: 'load_skill', arguments: { name: 'adding' } }] },
        {
          toolCalls: [
            { name: 'calculator__multiply', arguments: { a: 2, b: 3 } },
            { name: 'calculator__add_numbers', arguments: { a: 2, b: 3 } },
          ],
        },
        { text: 'ok' },
      ],
      { skills: [skillsWith('calculator__add_*')] },
    );
    try {
      await host.run('add');
      // Before the skill is active nothing is narrowed.
      expect(toolResultText(provider, 1)).toBe('6');
      const narrowed = provider.requests[3]!.messages.at(-1)!;
      if (narrowed.role !== 'tool') throw new Error('expected tool results');
      expect(narrowed.results[0]!.isError).toBe(true);
      expect(JSON.stringify(narrowed.results[0]!.content)).toContain(
        'Not allowed while skill \\"adding\\" is active: its allowed-tools do not name calculator__multiply',
      );
      expect(narrowed.results[1]!.isError).toBe(false);
      expect(JSON.stringify(narrowed.results[1]!.content)).toContain('5');
      const denied = audit.records.find((record) => record.type === 'tool-call' && record.outcome === 'denied');
      expect(denied).toMatchObject({ tool: 'calculator__multiply', decision: 'deny', decidedBy: 'skill' });
    } finally {
      await host.close();
    }
  });

  it('never widens: a tool the skill names is still denied by a rule', async () => {
    const { host, provider } = await open(
      [
        { toolCalls: [{ name: 'load_skill', arguments: { name: 'adding' } }] },
        { toolCalls: [{ name: 'calculator__add_numbers', arguments: { a: 2, b: 3 } }] },
        { text: 'ok' },
      ],
      {
        skills: [skillsWith('calculator__add_numbers')],
        permissions: { allow: [], ask: [], deny: ['calculator__add_numbers'] },
      },
    );
    try {
      await host.run('add');
      expect(toolResultText(provider, 2)).toContain('calculator__add_numbers');
      expect(toolResultText(provider, 2)).toMatch(/denied|Denied/);
    } finally {
      await host.close();
    }
  });
});
