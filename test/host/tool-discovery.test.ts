/**
 * Dynamic discovery over a catalog of real servers' published tool lists (test/fixtures/discovery/catalog.json)
 * and hand-labelled queries (queries.json): the right tool is among search_tools' first five results for at least
 * 95 % of queries, and what the model is offered (the meta-tools) costs at most 10 % of the full catalog's tokens.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Tool } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { ToolCatalog } from '../../src/catalog/tool-catalog.js';
import {
  DISCOVERY_THRESHOLD_TOKENS,
  DiscoveryCatalog,
  discoveryApplies,
  metaToolDefinitions,
} from '../../src/host/tool-discovery.js';
import { estimateTextTokens, estimateToolListTokens } from '../../src/providers/token-estimate/index.js';
import { repoRoot } from '../helpers/project.js';

const fixtures = join(repoRoot, 'test', 'fixtures', 'discovery');
const { servers } = JSON.parse(readFileSync(join(fixtures, 'catalog.json'), 'utf8')) as {
  servers: Array<{ server: string; tools: Tool[] }>;
};
const queries = JSON.parse(readFileSync(join(fixtures, 'queries.json'), 'utf8')) as Array<{
  query: string;
  tool: string;
}>;
const catalog = ToolCatalog.build(servers);
const discovery = new DiscoveryCatalog(catalog.entries);
const definitions = catalog.entries.map((entry) => ({
  name: entry.name,
  description: entry.tool.description ?? '',
  inputSchema: entry.tool.inputSchema as Record<string, unknown>,
}));

async function search(query: string): Promise<string[]> {
  const answer = await discovery.answer('search_tools', { query });
  if (answer.kind !== 'text') throw new Error('search_tools answered with a call');
  return answer.text.split('\n').map((line) => line.slice(0, line.indexOf(':')));
}

describe('tool discovery over real servers’ published tool lists', () => {
  it('holds at least 300 tools and 100 labelled queries, each naming a tool of the catalog', () => {
    expect(catalog.entries.length).toBeGreaterThanOrEqual(300);
    expect(queries.length).toBeGreaterThanOrEqual(100);
    const names = new Set(catalog.entries.map((entry) => entry.name));
    expect(queries.filter((query) => !names.has(query.tool))).toEqual([]);
  });

  it('finds the labelled tool in the top 5 for at least 95 % of queries', async () => {
    const misses: typeof queries = [];
    for (const query of queries) if (!(await search(query.query)).includes(query.tool)) misses.push(query);
    const recall = (queries.length - misses.length) / queries.length;
    process.stderr.write(`discovery: top-5 recall ${(recall * 100).toFixed(1)} % over ${queries.length} queries\n`);
    expect(misses.length, JSON.stringify(misses, null, 1)).toBeLessThanOrEqual(Math.floor(queries.length * 0.05));
  });

  it('offers at most 10 % of the full catalog’s tokens, a search answer and a definition included', async () => {
    const full = estimateToolListTokens(definitions);
    const offered = estimateToolListTokens(metaToolDefinitions(catalog.entries.length));
    const searchAnswer = ((await discovery.answer('search_tools', { query: queries[0]!.query })) as { text: string })
      .text;
    const described = ((await discovery.answer('describe_tool', { name: queries[0]!.tool })) as { text: string }).text;
    const perTurn = offered + estimateTextTokens(searchAnswer) + estimateTextTokens(described);
    process.stderr.write(
      `discovery: full catalog ${full} tokens (${catalog.entries.length} tools); meta-tools ${offered}; with one search and one definition ${perTurn}\n`,
    );
    expect(offered).toBe(discovery.offeredTokens());
    expect(perTurn).toBeLessThanOrEqual(full * 0.1);
  });

  it('switches on above the threshold under "auto", always under "always", never under "never"', () => {
    expect(estimateToolListTokens(definitions)).toBeGreaterThan(DISCOVERY_THRESHOLD_TOKENS);
    expect(discoveryApplies('auto', catalog.entries)).toBe(true);
    expect(discoveryApplies('never', catalog.entries)).toBe(false);
    const few = catalog.entries.slice(0, 3);
    expect(discoveryApplies('auto', few)).toBe(false);
    expect(discoveryApplies('always', few)).toBe(true);
  });

  it('answers describe and call with the named tool, and rejects unknown names and bad arguments clearly', async () => {
    const described = await discovery.answer('describe_tool', { name: 'github__create_issue' });
    expect(described.kind === 'text' && JSON.parse(described.text).inputSchema.required).toContain('title');
    expect(await discovery.answer('call_tool', { name: 'github__create_issue', arguments: { title: 't' } })).toEqual({
      kind: 'call',
      name: 'github__create_issue',
      args: { title: 't' },
    });
    expect(await discovery.answer('call_tool', { name: 'nope__nothing' })).toMatchObject({ isError: true });
    expect(await discovery.answer('call_tool', { name: 'github__create_issue', arguments: [1] })).toMatchObject({
      isError: true,
    });
    expect(await discovery.answer('search_tools', {})).toMatchObject({ isError: true });
  });
});
