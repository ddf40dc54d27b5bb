/**
 * Which models search deferred tools natively (each provider's documented rule, and the setting that overrides it),
 * and the mock LLM server's check that a call of a deferred tool comes after the search blocks that loaded it — what
 * a host that dropped those blocks from the history would be refused by the real API for.
 */
import { describe, expect, it } from 'vitest';
import { createProvider } from '../../src/host/create-provider.js';
import { anthropicModelHasToolSearch } from '../../src/providers/anthropic/anthropic-tool-search.js';
import { responsesModelHasToolSearch } from '../../src/providers/openai-responses/openai-responses-tool-search.js';
import { ProviderError } from '../../src/providers/types.js';
import { useMockLlmServer } from '../helpers/mock-llm.js';
import { repoRoot } from '../helpers/project.js';

describe('models with a native tool search', () => {
  it('follows Anthropic’s list: Claude 4.5 and later, dated ids and aliases alike', () => {
    for (const model of [
      'claude-sonnet-4-5-20250929',
      'claude-opus-4-5-20251101',
      'claude-haiku-4-5-20251001',
      'claude-sonnet-4-6',
      'claude-opus-4-8',
      'claude-sonnet-5',
      'claude-haiku-5-5',
      'claude-mythos-5-1',
    ]) {
      expect(anthropicModelHasToolSearch(model), model).toBe(true);
    }
    for (const model of [
      'claude-opus-4-1',
      'claude-opus-4-20250514',
      'claude-sonnet-4-0',
      'claude-3-7-sonnet-latest',
    ]) {
      expect(anthropicModelHasToolSearch(model), model).toBe(false);
    }
  });

  it('follows OpenAI’s rule: gpt-5.4 and later', () => {
    for (const model of ['gpt-5.4', 'gpt-5.4-pro', 'gpt-5.5-mini', 'gpt-6']) {
      expect(responsesModelHasToolSearch(model), model).toBe(true);
    }
    for (const model of ['gpt-5', 'gpt-5.2', 'gpt-5-mini', 'o3', 'gpt-4.1']) {
      expect(responsesModelHasToolSearch(model), model).toBe(false);
    }
  });

  it('is overridden by the setting, and absent for providers without one', async () => {
    const settings = { env: { ANTHROPIC_API_KEY: 'k', OPENAI_API_KEY: 'k', GEMINI_API_KEY: 'k' }, cwd: repoRoot };
    expect((await createProvider('anthropic:claude-sonnet-4-6', settings)).nativeToolSearch).toBe(true);
    expect((await createProvider('anthropic:claude-opus-4-1', settings)).nativeToolSearch).toBe(false);
    expect(
      (await createProvider('anthropic:claude-opus-4-1', { ...settings, nativeToolSearch: true })).nativeToolSearch,
    ).toBe(true);
    expect(
      (await createProvider('openai-responses:gpt-5.4', { ...settings, nativeToolSearch: false })).nativeToolSearch,
    ).toBe(false);
    expect((await createProvider('gemini:gemini-2.5-flash', settings)).nativeToolSearch).toBeUndefined();
    expect((await createProvider('openai:gpt-5.4', settings)).nativeToolSearch).toBeUndefined();
  });
});

describe('the mock refuses a deferred call whose search blocks were dropped', () => {
  const mock = useMockLlmServer({ script: { scenarios: [{ turns: [{ text: 'unused' }, { text: 'ok' }] }] } });
  const deferred = {
    name: 'shop__find_order',
    description: 'Find an order by its number',
    inputSchema: { type: 'object', properties: { number: { type: 'string' } } },
    deferLoading: true,
  };

  it('Anthropic: a tool_use of a deferred tool with no tool_search_tool_result before it is a 400', async () => {
    const provider = await createProvider('anthropic:claude-sonnet-4-6', {
      baseUrl: mock.url,
      env: { ANTHROPIC_API_KEY: 'k' },
      cwd: repoRoot,
      maxRetries: 0,
    });
    const call = { type: 'tool-call' as const, id: 'toolu_1', name: deferred.name, argumentsText: '{"number":"7"}' };
    const request = {
      tools: [deferred],
      messages: [
        { role: 'user' as const, content: [{ type: 'text' as const, text: 'Where is order 7?' }] },
        { role: 'assistant' as const, content: [call] },
        {
          role: 'tool' as const,
          results: [{ callId: 'toolu_1', toolName: deferred.name, content: [], isError: false }],
        },
      ],
    };
    const error = await provider.generate(request).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).details.status).toBe(400);
    expect((error as ProviderError).message).toContain('no tool_search_tool_result before it loaded');
  });
});
