/**
 * Full-text search over a tool catalog, for catalogs too large to offer whole: BM25 (MiniSearch) over each tool's
 * name, title, description and argument names, with names split into words (`git_create_branch`, `listIssues`) and
 * prefix and fuzzy matching so "branches" finds `create_branch`. Built once per catalog; the catalog is immutable.
 */
import MiniSearch from 'minisearch';

export interface SearchableTool {
  /** The namespaced name the model sees. */
  name: string;
  server: string;
  title?: string;
  description: string;
  inputSchema: { properties?: Record<string, unknown> };
}

export interface ToolSearchHit {
  name: string;
  /** The description's first sentence, bounded: enough to choose, far cheaper than the definition. */
  summary: string;
  score: number;
}

/** Summaries are cut here: a hit list stays small whatever a server writes. */
const SUMMARY_CHARACTERS = 160;
const MAX_QUERY_CHARACTERS = 500;

/** `git_create_branch`, `listIssues`, `browser-tab-new` → lower-case words. */
export function wordsOf(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0);
}

/** Plural and verb endings folded so "branches", "listing" and "commits" match "branch", "list", "commit". */
function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && /(ches|shes|sses|xes)$/.test(word)) return word.slice(0, -2);
  if (word.length > 5 && word.endsWith('ing')) return word.slice(0, -3);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

function summaryOf(description: string): string {
  const flat = description.replace(/\s+/g, ' ').trim();
  const sentence = /^(.+?[.!?])(\s|$)/.exec(flat)?.[1] ?? flat;
  return sentence.length <= SUMMARY_CHARACTERS ? sentence : `${sentence.slice(0, SUMMARY_CHARACTERS - 1)}…`;
}

interface IndexedTool {
  id: number;
  name: string;
  server: string;
  words: string;
  description: string;
  args: string;
}

export class ToolSearch {
  private readonly index: MiniSearch<IndexedTool>;

  constructor(private readonly tools: readonly SearchableTool[]) {
    this.index = new MiniSearch<IndexedTool>({
      fields: ['words', 'server', 'description', 'args'],
      tokenize: (text) => wordsOf(text),
      processTerm: (term) => stem(term),
      searchOptions: {
        boost: { words: 3, server: 1.5, args: 1 },
        prefix: (term) => term.length >= 4,
        fuzzy: (term) => (term.length >= 6 ? 0.2 : false),
        combineWith: 'OR',
      },
    });
    this.index.addAll(
      tools.map((tool, id) => ({
        id,
        name: tool.name,
        server: tool.server,
        words: `${tool.name} ${tool.title ?? ''}`,
        description: tool.description,
        args: Object.keys(tool.inputSchema.properties ?? {}).join(' '),
      })),
    );
  }

  get size(): number {
    return this.tools.length;
  }

  search(query: string, limit: number): ToolSearchHit[] {
    const results = this.index.search(query.slice(0, MAX_QUERY_CHARACTERS));
    return results.slice(0, limit).map((result) => {
      const tool = this.tools[result.id as number]!;
      return { name: tool.name, summary: summaryOf(tool.description), score: Math.round(result.score * 100) / 100 };
    });
  }
}
