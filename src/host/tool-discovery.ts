/**
 * Dynamic tool discovery: when the catalog's definitions would cost more than a threshold of tokens, the model (or
 * a gateway client) is offered three meta-tools instead of every definition: search the catalog, describe one
 * tool, call one tool by name. `call_tool` is no second way to run a tool: callers route it into the same call
 * path as any tool call (Host.callTool, or the loop's execution), so rules, consent, pinning, budgets and audit
 * apply to the named tool exactly as if it had been offered directly.
 */
import type { CatalogEntry } from '../catalog/tool-catalog.js';
import type { ToolSearch } from '../catalog/tool-search.js';
import type { ToolDiscovery } from '../config/types.js';
import type { ExecuteToolCall } from '../loop/tool-call-types.js';
import { estimateToolListTokens, toolListTokensExceed } from '../providers/token-estimate/index.js';
import type { ToolDefinition } from '../providers/types.js';

/**
 * "auto" switches to discovery when the full catalog's definitions exceed this many estimated tokens (o200k, as
 * offered to OpenAI's chat API): about 5 % of a 200k-token window, or 20–40 typical tools. Below it, the saving is
 * smaller than the cost of the extra search turn.
 */
export const DISCOVERY_THRESHOLD_TOKENS = 10_000;

const SEARCH_TOOLS = 'search_tools';
const DESCRIBE_TOOL = 'describe_tool';
export const CALL_TOOL = 'call_tool';
const META_TOOL_NAMES: ReadonlySet<string> = new Set([SEARCH_TOOLS, DESCRIBE_TOOL, CALL_TOOL]);

const DEFAULT_RESULTS = 5;
const MAX_RESULTS = 20;

export function isMetaTool(name: string): boolean {
  return META_TOOL_NAMES.has(name);
}

export function metaToolDefinitions(toolCount: number): ToolDefinition[] {
  return [
    {
      name: SEARCH_TOOLS,
      description: `Search the ${toolCount} available tools by what you want to do; returns tool names with one-line summaries. Then describe_tool for the arguments, and call_tool to run it.`,
      inputSchema: {
        type: 'object',
        properties: {
          query: { type: 'string', description: 'Words describing the task, e.g. "create a pull request".' },
          limit: { type: 'integer', minimum: 1, maximum: MAX_RESULTS, description: `Default ${DEFAULT_RESULTS}.` },
        },
        required: ['query'],
      },
    },
    {
      name: DESCRIBE_TOOL,
      description: "A tool's full definition: description and JSON Schema of its arguments.",
      inputSchema: {
        type: 'object',
        properties: { name: { type: 'string', description: 'A name returned by search_tools.' } },
        required: ['name'],
      },
    },
    {
      name: CALL_TOOL,
      description: 'Call a tool by name with its arguments (as described by describe_tool).',
      inputSchema: {
        type: 'object',
        properties: {
          name: { type: 'string', description: 'A name returned by search_tools.' },
          arguments: { type: 'object', description: "The tool's arguments." },
        },
        required: ['name'],
      },
    },
  ];
}

function definitionOf(entry: CatalogEntry): ToolDefinition {
  return {
    name: entry.name,
    description: entry.tool.description ?? '',
    inputSchema: entry.tool.inputSchema as Record<string, unknown>,
  };
}

/** Whether discovery replaces the full list, for this setting and these (offered) entries. */
export function discoveryApplies(setting: ToolDiscovery, entries: readonly CatalogEntry[]): boolean {
  if (setting === 'never') return false;
  if (setting === 'always') return true;
  return toolListTokensExceed(entries.map(definitionOf), DISCOVERY_THRESHOLD_TOKENS);
}

type MetaAnswer =
  | { kind: 'text'; text: string; isError: boolean }
  | { kind: 'call'; name: string; args: Record<string, unknown> };

/** Search and describe answered from the offered entries; a call is handed back to the caller's own call path. */
export class DiscoveryCatalog {
  private search: Promise<ToolSearch> | undefined;
  private readonly byName: ReadonlyMap<string, CatalogEntry>;

  constructor(readonly entries: readonly CatalogEntry[]) {
    this.byName = new Map(entries.map((entry) => [entry.name, entry]));
  }

  /** Built, and its module loaded, on the first search: offering or listing the tools never searches. */
  private searchIndex(): Promise<ToolSearch> {
    this.search ??= import('../catalog/tool-search.js').then(
      ({ ToolSearch }) =>
        new ToolSearch(
          this.entries.map((entry) => ({
            name: entry.name,
            server: entry.server,
            ...(entry.tool.title === undefined ? {} : { title: entry.tool.title }),
            description: entry.tool.description ?? '',
            inputSchema: entry.tool.inputSchema as { properties?: Record<string, unknown> },
          })),
        ),
    );
    return this.search;
  }

  /** Tokens of the meta-tools, as offered instead of the catalog. */
  offeredTokens(): number {
    return estimateToolListTokens(metaToolDefinitions(this.entries.length));
  }

  async answer(name: string, args: Record<string, unknown>): Promise<MetaAnswer> {
    const text = (value: string, isError = false): MetaAnswer => ({ kind: 'text', text: value, isError });
    if (name === SEARCH_TOOLS) {
      if (typeof args.query !== 'string' || args.query.trim() === '') {
        return text('search_tools needs "query": words describing the task.', true);
      }
      const limit =
        typeof args.limit === 'number' && Number.isInteger(args.limit)
          ? Math.min(Math.max(args.limit, 1), MAX_RESULTS)
          : DEFAULT_RESULTS;
      const hits = (await this.searchIndex()).search(args.query, limit);
      if (hits.length === 0) return text(`No tool matches "${args.query.slice(0, 100)}". Try other words.`);
      return text(hits.map((hit) => `${hit.name}: ${hit.summary}`).join('\n'));
    }
    const target = typeof args.name === 'string' ? args.name : undefined;
    const entry = target === undefined ? undefined : this.byName.get(target);
    if (entry === undefined) {
      return text(
        `${target === undefined ? `${name} needs "name"` : `Unknown tool "${target.slice(0, 100)}"`}: use a name returned by search_tools.`,
        true,
      );
    }
    if (name === DESCRIBE_TOOL) return text(JSON.stringify(definitionOf(entry)));
    const callArgs = args.arguments;
    if (callArgs !== undefined && (typeof callArgs !== 'object' || callArgs === null || Array.isArray(callArgs))) {
      return text('call_tool: "arguments" must be an object.', true);
    }
    return { kind: 'call', name: entry.name, args: (callArgs ?? {}) as Record<string, unknown> };
  }
}

/**
 * The loop's executor with the meta-tools answered in front of it: search and describe here, and `call_tool` as a
 * call of the named tool handed to `execute` (the host's one executor), its result returned under the meta-tool's
 * name so the model sees it paired with the call it made.
 */
export function withDiscovery(execute: ExecuteToolCall, current: () => DiscoveryCatalog | undefined): ExecuteToolCall {
  return async (call, context) => {
    const discovery = current();
    if (discovery === undefined || !isMetaTool(call.name)) return execute(call, context);
    let args: unknown;
    try {
      args = call.argumentsText.trim() === '' ? {} : JSON.parse(call.argumentsText);
    } catch {
      args = undefined;
    }
    const answer =
      typeof args === 'object' && args !== null && !Array.isArray(args)
        ? await discovery.answer(call.name, args as Record<string, unknown>)
        : ({ kind: 'text', text: `${call.name}: the arguments must be a JSON object.`, isError: true } as const);
    if (answer.kind === 'call') {
      const executed = await execute(
        { ...call, name: answer.name, argumentsText: JSON.stringify(answer.args) },
        context,
      );
      return { ...executed, result: { ...executed.result, toolName: call.name } };
    }
    return {
      result: {
        callId: call.id,
        toolName: call.name,
        content: [{ type: 'text', text: answer.text }],
        isError: answer.isError,
      },
      outcome: answer.isError ? 'invalid' : 'ok',
    };
  };
}
