/**
 * A call's content as the gateway passes it on. The host's content is shaped for a model, which takes only text and
 * images: each audio block, resource link and embedded resource of the server's is one line describing it there. A
 * client behind the gateway can take them, so each takes the place of its part again, as the server sent it: the
 * mapping says which block each part stands for (`ExecutedToolCall.contentSources`), and the budget, which keeps
 * parts where they are, leaves that true. Text and images stay the host's budgeted parts (a cut text stays cut).
 *
 * The blocks are the server's, untrusted, and held to the output budget the rest of the result is held to: in the
 * server's order, a block takes its part's place while what it costs beyond that part fits in what the host's content
 * left of the budget, and otherwise the part stays, so the client is told what was left out.
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { ToolResultPart } from '../content/content-parts.js';
import { estimatePartsTokens, estimatePartTokens, estimateTokens } from '../content/linear-token-estimate.js';
import { DEFAULT_RESULT_TOKEN_BUDGET } from '../content/output-budget.js';
import { escapePrototypeKeys } from '../json/escape-prototype-keys.js';
import { exceedsJsonDepth } from '../json/json-depth.js';
import type { ExecutedToolCall } from '../loop/tool-call-types.js';

type ContentBlock = CallToolResult['content'][number];

/** The kinds a model is given a description of and an MCP client can take as they are. */
const PASSED_ON_KINDS = new Set(['audio', 'resource_link', 'resource']);

/**
 * The answer's content. The blocks passed on have their `__proto__` keys renamed, for the library's check of the
 * result; `GatewayServer` names them back.
 */
export function contentPassedOn(executed: ExecutedToolCall): CallToolResult['content'] {
  const parts = executed.result.content;
  const blocks = blocksOf(executed.rawResult);
  const sources = executed.contentSources;
  // The common answer, text and images only, is not measured: nothing of it would change.
  const passable = (block: ContentBlock | undefined): block is ContentBlock =>
    block !== undefined && PASSED_ON_KINDS.has(block.type);
  if (blocks === undefined || sources === undefined || !sources.some((source) => passable(blockAt(blocks, source)))) {
    return parts.map(asContent);
  }
  let left = (executed.maxResultTokens ?? DEFAULT_RESULT_TOKEN_BUDGET) - estimatePartsTokens(parts);
  return parts.map((part, index) => {
    const block = blockAt(blocks, sources[index]);
    if (!passable(block)) return asContent(part);
    const partTokens = estimatePartTokens(part);
    const extra = blockTokens(block, left + partTokens) - partTokens;
    if (extra > left) return asContent(part);
    left -= extra;
    return escapePrototypeKeys(block);
  });
}

function blockAt(blocks: readonly ContentBlock[], source: number | undefined): ContentBlock | undefined {
  return source === undefined ? undefined : blocks[source];
}

function blocksOf(raw: unknown): readonly ContentBlock[] | undefined {
  const content = (raw as { content?: unknown } | undefined)?.content;
  return Array.isArray(content) ? (content as ContentBlock[]) : undefined;
}

function asContent(part: ToolResultPart): ContentBlock {
  return part.type === 'text'
    ? { type: 'text', text: part.text }
    : { type: 'image', data: part.data, mimeType: part.mimeType };
}

/**
 * A block's estimated tokens as a client is sent it: its JSON, as `structuredContent` is counted. A block whose data
 * alone costs more than `atMost` is not serialised to learn by how much (it is at least a quarter token a character).
 */
function blockTokens(block: ContentBlock, atMost: number): number {
  if (Math.ceil(payloadLength(block) / 4) > atMost) return Number.POSITIVE_INFINITY;
  // The call's result was refused for its depth before this; a block is still never walked past the limit.
  return exceedsJsonDepth(block) ? Number.POSITIVE_INFINITY : estimateTokens(JSON.stringify(block));
}

/** The length of a block's data, text or blob: the bulk of its JSON. */
function payloadLength(block: ContentBlock): number {
  if (block.type === 'audio') return block.data.length;
  if (block.type !== 'resource') return 0;
  const resource = block.resource as { text?: unknown; blob?: unknown };
  if (typeof resource.text === 'string') return resource.text.length;
  return typeof resource.blob === 'string' ? resource.blob.length : 0;
}
