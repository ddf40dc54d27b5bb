/**
 * The result step of a call: MCP result → what the model sees (content mapping, then the output budget: per tool >
 * per server > `--max-result-tokens` > the config's > the default, shared evenly by the turn's calls when the config
 * sets a per-turn total).
 */
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { CatalogEntry } from '../catalog/tool-catalog.js';
import { serverConfigOf } from '../config/server-config-of.js';
import type { HostConfig } from '../config/types.js';
import { type SpilledText, spilledTextOf } from '../connections/spilled-text.js';
import { budgetToolResult } from '../content/budget-tool-result.js';
import { DEFAULT_RESULT_TOKEN_BUDGET } from '../content/default-result-budget.js';
import { mapToolResult } from '../content/map-tool-result.js';
import type { ResultStore } from '../content/result-store.js';
import { stringifyJsonWithinDepth } from '../json/json-depth.js';
import type { ToolCallDependencies } from './execute-tool-call.js';

interface ShapeResultSettings {
  config: HostConfig;
  /** Where the full text of a cut result is kept, for the model to read on. */
  results: ResultStore;
  /** Overrides the config's `maxResultTokens` (per-server and per-tool settings still win). */
  maxResultTokens?: number;
  /** A result was cut (its rest is in `results`). */
  onCut?: () => void;
}

function resultTokenBudget(config: HostConfig, entry: CatalogEntry, override?: number): number {
  const server = serverConfigOf(config, entry.server);
  return (
    server?.tools?.[entry.tool.name]?.maxResultTokens ??
    server?.maxResultTokens ??
    override ??
    config.maxResultTokens ??
    DEFAULT_RESULT_TOKEN_BUDGET
  );
}

export function createShapeResult(settings: ShapeResultSettings): ToolCallDependencies['shapeResult'] {
  return (raw, entry, context) => {
    // Measured before the budget takes up a text kept out of memory, whose size only its facts know.
    const spilledTexts = spilledTextsOf(raw);
    const resultBytes = resultSize(raw);
    // A downstream MCP client is given the structuredContent beside the content (see gateway/structured-content.ts).
    const mapped = mapToolResult(raw, {
      outputSchema: entry.tool.outputSchema,
      structuredContentBeside: context.client !== undefined,
    });
    const perResult = resultTokenBudget(settings.config, entry, settings.maxResultTokens);
    // The per-turn total is shared evenly by the turn's calls, decided before any of them ends.
    const turnTotal = settings.config.maxTurnResultTokens;
    const share =
      turnTotal === undefined
        ? perResult
        : Math.min(perResult, Math.floor(turnTotal / Math.max(1, context.callsInTurn)));
    const budgeted = budgetToolResult(mapped.content, { store: settings.results, maxTokensPerResult: share });
    if (budgeted.cut) settings.onCut?.();
    return {
      content: budgeted.content,
      isError: mapped.isError,
      cut: budgeted.cut,
      resultBytes,
      maxTokens: share,
      // The budget replaces parts where they are, never adds or drops one, so the mapping's sources still hold.
      contentSources: mapped.sources,
      ...(spilledTexts.length === 0 ? {} : { spilledTexts }),
    };
  };
}

/** What stands behind each text of the raw result that is a stand-in for one kept out of memory. */
function spilledTextsOf(raw: CallToolResult): SpilledText[] {
  const found: SpilledText[] = [];
  for (const block of raw.content ?? []) {
    const facts = block.type === 'text' ? spilledTextOf(block.text) : undefined;
    if (facts !== undefined) found.push(facts);
  }
  return found;
}

/**
 * The size of a result's payload in bytes: text as UTF-8, binary data as its base64, anything else as JSON.
 * Counted block by block so a 50 MB result is not serialised a second time just to be measured.
 */
function resultSize(raw: CallToolResult): number {
  let bytes = 0;
  for (const block of raw.content ?? []) {
    if (block.type === 'text') bytes += spilledTextOf(block.text)?.utf8Bytes ?? Buffer.byteLength(block.text);
    else if (block.type === 'image' || block.type === 'audio') bytes += block.data.length;
    else bytes += Buffer.byteLength(stringifyJsonWithinDepth(block) ?? '');
  }
  if (raw.structuredContent !== undefined) {
    bytes += Buffer.byteLength(stringifyJsonWithinDepth(raw.structuredContent) ?? '');
  }
  return bytes;
}
