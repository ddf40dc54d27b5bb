/**
 * The token figures the README gives, measured: with 50 skills installed the system prompt grows by at most 60
 * tokens per skill (o200k estimate), loading one skill costs its body only, and on the wire (the real Anthropic SDK
 * against the mock LLM server) the system prompt and tools array are byte-identical across turns.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHost } from '../../src/host/create-host.js';
import { estimateTextTokens } from '../../src/providers/token-estimate/index.js';
import { type MockLlmServer, startMockLlmServer } from '../../src/testing/mock-llm/mock-llm-server.js';
import { hostConfig, stdioServer } from '../helpers/configs.js';
import { exampleServer } from '../helpers/project.js';
import { PUBLISHED_SKILL_NAMES, publishedSkills, writeSkill } from './skill-fixtures.js';

const SKILL_COUNT = 50;
/** The published skills' descriptions (long ones: 300 to 500 characters), reused for made-up names. */
const descriptions = PUBLISHED_SKILL_NAMES.map((name) => {
  const text = readFileSync(join(publishedSkills, name, 'SKILL.md'), 'utf8');
  return /^description: (.*)$/m.exec(text)![1]!;
});

function installSkills(count: number): string {
  const folder = mkdtempSync(join(tmpdir(), 'mcp-host-fifty-skills-'));
  for (let index = 0; index < count; index += 1) {
    writeSkill(folder, {
      name: `skill-${String(index).padStart(2, '0')}-${PUBLISHED_SKILL_NAMES[index % 3]}`,
      description: descriptions[index % 3]!,
      body: `# Skill ${index}\n\n${'Follow these steps carefully. '.repeat(20 + index)}\n`,
    });
  }
  return folder;
}

let mock: MockLlmServer;
beforeAll(async () => {
  mock = await startMockLlmServer({
    script: {
      scenarios: [
        {
          turns: [
            { toolCalls: [{ name: 'load_skill', arguments: { name: 'skill-07-tech-debt-analyzer' } }] },
            { text: 'loaded' },
          ],
        },
      ],
    },
  });
});
afterAll(async () => {
  await mock?.close();
});

describe('token figures', () => {
  it('50 skills cost at most 60 tokens each in the system prompt; loading one costs its body', async () => {
    const skills = installSkills(SKILL_COUNT);
    const open = (withSkills: boolean) =>
      createHost({
        config: hostConfig([stdioServer('calculator', [exampleServer('calculator')], { trust: 'trusted' })], {
          skills: withSkills ? [skills] : false,
        }),
        model: 'anthropic:claude-sonnet-4-6',
        baseUrl: mock.url,
        env: { ANTHROPIC_API_KEY: 'test-key', HOME: mkdtempSync(join(tmpdir(), 'mcp-host-home-')) },
        cwd: mkdtempSync(join(tmpdir(), 'mcp-host-project-')),
        stateDir: mkdtempSync(join(tmpdir(), 'mcp-host-state-')),
        auditSink: false,
      });
    const without = await open(false);
    const baseline = without.systemPrompt().tokens;
    await without.close();

    const host = await open(true);
    try {
      expect(host.skills().offered).toHaveLength(SKILL_COUNT);
      const prompt = host.systemPrompt();
      const perSkill = (prompt.tokens - baseline) / SKILL_COUNT;
      console.log(
        `skills listing: ${prompt.tokens - baseline} tokens for ${SKILL_COUNT} skills, ${perSkill.toFixed(1)} per skill`,
      );
      expect(perSkill).toBeLessThanOrEqual(60);

      mock.requests.length = 0;
      await host.run('document the code');
      expect(mock.requests).toHaveLength(2);
      const [first, second] = mock.requests.map((request) => request.body as Record<string, unknown>);
      expect(JSON.stringify(second!.system)).toBe(JSON.stringify(first!.system));
      expect(JSON.stringify(second!.tools)).toBe(JSON.stringify(first!.tools));

      // The load_skill result is the body, nothing more.
      const messages = second!.messages as Array<{ role: string; content: Array<Record<string, unknown>> }>;
      const result = messages.at(-1)!.content.find((block) => block.type === 'tool_result')!;
      const body = host.skills().offered.find((skill) => skill.name === 'skill-07-tech-debt-analyzer')!.body;
      const content = result.content as string | Array<{ text: string }>;
      const resultText = typeof content === 'string' ? content : content.map((block) => block.text).join('');
      expect(resultText).toBe(body);
      console.log(
        `load_skill: ${estimateTextTokens(resultText)} tokens for a body of ${estimateTextTokens(body)} tokens`,
      );
      expect(readdirSync(skills)).toHaveLength(SKILL_COUNT);
    } finally {
      await host.close();
    }
  }, 180_000);
});
