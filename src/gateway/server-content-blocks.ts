/**
 * A call's content, and a prompt's messages, as the gateway passes them on. The host's content is shaped for a model,
 * which takes only text and images: each audio block, resource link and embedded resource of the server's is one line
 * describing it there. A client behind the gateway can take them, so each takes the place of its part again, as the
 * server sent it: the mapping says which block each part stands for (`ExecutedToolCall.contentSources`, a prompt's
 * message), and the budget, which keeps parts where they are, leaves that true. Text and images stay the host's
 * budgeted parts (a cut text stays cut).
 *
 * The blocks are the server's, untrusted, and held to the output budget the rest of the result is held to: in the
 * server's order, a block takes its part's place while what it costs beyond that part fits in what the host's content
 * left of the budget, and otherwise the part stays, so the client is told what was left out.
 */
import type { CallToolResult, GetPromptResult } from '@modelcontextprotocol/server';
import type { BudgetedPrompt } from '../client-features/server-feature-access.js';
import type { ToolResultPart } from '../content/content-parts.js';
import { DEFAULT_RESULT_TOKEN_BUDGET } from '../content/default-result-budget.js';
import { estimatePartsTokens, estimatePartTokens, estimateTokens } from '../content/linear-token-estimate.js';
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
  return passedOn(
    executed.result.content,
    blocksOf(executed.rawResult),
    executed.contentSources,
    executed.maxResultTokens ?? DEFAULT_RESULT_TOKEN_BUDGET,
    escapePrototypeKeys,
  ).content;
}

/**
 * A prompt as the gateway passes it on: its messages' parts, cut by the host as one tool result (`run --prompt`
 * opens a run with the same), in the place of the server's blocks, one message for each part. A message that is one
 * part has its server's block put back as a call's is; one the host made several parts of (an embedded image
 * resource: a line naming it and the image) is passed on as those parts. The result's `_meta` is not passed on, as a
 * call's is not.
 */
export function promptPassedOn(prompt: BudgetedPrompt): GetPromptResult {
  const parts = prompt.parts.flat();
  const roles = prompt.parts.flatMap((messageParts, index) =>
    messageParts.map(() => prompt.result.messages[index]!.role),
  );
  const sources = prompt.parts.flatMap((messageParts, index) =>
    messageParts.length === 1 ? [index] : messageParts.map(() => undefined),
  );
  const blocks = prompt.result.messages.map((message) => message.content);
  const { content, left } = passedOn(parts, blocks, sources, prompt.maxTokens, (block) => block);
  const { description } = prompt.result;
  // The server's text as much as its messages: passed on while it fits in what they left of the budget, else left out
  // (the prompt's listing describes it).
  const fits =
    typeof description === 'string' &&
    estimateTokens(description) <= (left ?? prompt.maxTokens - estimatePartsTokens(parts));
  // Only what was held to the budget, as a call's answer: the result's `_meta`, held to none, is left out.
  return {
    ...(fits ? { description } : {}),
    messages: content.map((block, index) => ({ role: roles[index]!, content: block })),
  };
}

/**
 * `parts`, fitted into `maxTokens` already, with the server's block each stands for (`sources`: its index in
 * `blocks`) in its place where the client can take it (audio, resource links, embedded resources), in order, while
 * what it costs beyond its part fits in what `parts` left of `maxTokens`. `take` readies a block to be passed on.
 * `left`: what the content leaves of `maxTokens`, when it was measured (parts only of text and images are not).
 */
function passedOn(
  parts: readonly ToolResultPart[],
  blocks: readonly ContentBlock[] | undefined,
  sources: readonly (number | undefined)[] | undefined,
  maxTokens: number,
  take: (block: ContentBlock) => ContentBlock,
): { content: ContentBlock[]; left: number | undefined } {
  // The common answer, text and images only, is not measured: nothing of it would change.
  const passable = (block: ContentBlock | undefined): block is ContentBlock =>
    block !== undefined && PASSED_ON_KINDS.has(block.type);
  if (blocks === undefined || sources === undefined || !sources.some((source) => passable(blockAt(blocks, source)))) {
    return { content: parts.map(asContent), left: undefined };
  }
  let left = maxTokens - estimatePartsTokens(parts);
  const content = parts.map((part, index) => {
    const block = blockAt(blocks, sources[index]);
    if (!passable(block)) return asContent(part);
    const partTokens = estimatePartTokens(part);
    const extra = blockTokens(block, left + partTokens) - partTokens;
    if (extra > left) return asContent(part);
    left -= extra;
    return take(block);
  });
  return { content, left };
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
