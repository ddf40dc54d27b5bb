/**
 * A server's `sampling/createMessage` → the provider-neutral request the host's model takes, and the model's
 * answer → the `CreateMessageResult` the server expects. Tool use inside sampling maps both ways: the server's
 * tools are offered to the model, its `tool_use` blocks become tool calls and its `tool_result` blocks tool
 * results; the server, not the host, runs those tools.
 */
import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  CreateMessageResultWithTools,
  SamplingMessage,
} from '@modelcontextprotocol/client';
import { describeAudio } from '../content/describe-content.js';
import { mapContentBlock } from '../content/map-tool-result.js';
import { parseJsonWithinDepth } from '../json/json-depth.js';
import type {
  AssistantPart,
  LlmProvider,
  Message,
  ModelRequest,
  ModelResponse,
  StopReason,
  ToolDefinition,
  ToolResult,
  UserPart,
} from '../providers/types.js';

type SamplingBlock = Exclude<SamplingMessage['content'], unknown[]>;

function blocksOf(message: SamplingMessage): SamplingBlock[] {
  return Array.isArray(message.content) ? message.content : [message.content];
}

/** Whether the request uses tools (offers them, or sets a tool choice). */
export function samplingUsesTools(params: CreateMessageRequestParams): boolean {
  return (params.tools !== undefined && params.tools.length > 0) || params.toolChoice !== undefined;
}

export function samplingToModelRequest(params: CreateMessageRequestParams): ModelRequest {
  const toolNames = new Map<string, string>();
  const messages: Message[] = [];
  const push = (message: Message): void => {
    const last = messages.at(-1);
    // Providers want turns to alternate; consecutive messages of one role become one.
    if (last?.role === 'user' && message.role === 'user') last.content.push(...message.content);
    else if (last?.role === 'assistant' && message.role === 'assistant') last.content.push(...message.content);
    else if (last?.role === 'tool' && message.role === 'tool') last.results.push(...message.results);
    else messages.push(message);
  };

  for (const message of params.messages) {
    if (message.role === 'assistant') {
      const content: AssistantPart[] = blocksOf(message).map((block) => {
        if (block.type === 'tool_use') {
          toolNames.set(block.id, block.name);
          return { type: 'tool-call', id: block.id, name: block.name, argumentsText: JSON.stringify(block.input) };
        }
        return { type: 'text', text: describeForModel(block) };
      });
      push({ role: 'assistant', content });
      continue;
    }
    let userParts: UserPart[] = [];
    let results: ToolResult[] = [];
    const flushUser = (): void => {
      if (userParts.length > 0) push({ role: 'user', content: userParts });
      userParts = [];
    };
    const flushResults = (): void => {
      if (results.length > 0) push({ role: 'tool', results });
      results = [];
    };
    for (const block of blocksOf(message)) {
      if (block.type === 'tool_result') {
        flushUser();
        const content = block.content.map(mapContentBlock);
        if (block.structuredContent !== undefined && content.length === 0) {
          content.push({ type: 'text', text: JSON.stringify(block.structuredContent) });
        }
        results.push({
          callId: block.toolUseId,
          toolName: toolNames.get(block.toolUseId) ?? 'tool',
          content,
          isError: block.isError === true,
        });
        continue;
      }
      flushResults();
      if (block.type === 'text') userParts.push({ type: 'text', text: block.text });
      else if (block.type === 'image') userParts.push({ type: 'image', data: block.data, mimeType: block.mimeType });
      else userParts.push({ type: 'text', text: describeForModel(block) });
    }
    flushResults();
    flushUser();
  }

  const offerTools = params.toolChoice?.mode !== 'none';
  const tools: ToolDefinition[] = offerTools
    ? (params.tools ?? []).map((tool) => ({
        name: tool.name,
        description: tool.description ?? tool.title ?? '',
        inputSchema: tool.inputSchema as Record<string, unknown>,
      }))
    : [];
  return {
    ...(params.systemPrompt !== undefined ? { system: params.systemPrompt } : {}),
    messages,
    tools,
    maxOutputTokens: params.maxTokens,
  };
}

/** A block a model cannot take in this position, as one line of text. */
function describeForModel(block: SamplingBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'audio':
      return describeAudio(block.mimeType, block.data);
    case 'image':
      return `[image: ${block.mimeType} — not shown to the model in this position]`;
    default:
      return `[${block.type} content]`;
  }
}

const STOP_REASONS: Record<StopReason, string> = {
  end: 'endTurn',
  'tool-calls': 'toolUse',
  'max-tokens': 'maxTokens',
  refusal: 'refusal',
  // A paused server-side turn; sampling offers no server tools, so it is not expected here.
  paused: 'other',
  other: 'other',
};

/**
 * The model's answer as the server expects it. Without tools the answer is one text block (MCP's original
 * result shape); with tools it is a list of text and `tool_use` blocks.
 */
export function modelResponseToSamplingResult(
  response: ModelResponse,
  provider: Pick<LlmProvider, 'model'>,
  usesTools: boolean,
): CreateMessageResult | CreateMessageResultWithTools {
  const stopReason = STOP_REASONS[response.stopReason];
  const text = response.message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
  if (!usesTools) {
    return { role: 'assistant', model: provider.model, stopReason, content: { type: 'text', text } };
  }
  const content: CreateMessageResultWithTools['content'] = [];
  if (text !== '') content.push({ type: 'text', text });
  for (const part of response.message.content) {
    if (part.type !== 'tool-call') continue;
    content.push({ type: 'tool_use', id: part.id, name: part.name, input: parseToolInput(part.argumentsText) });
  }
  if (content.length === 0) content.push({ type: 'text', text: '' });
  return { role: 'assistant', model: provider.model, stopReason, content };
}

/** The model's arguments as an object; text that is not a JSON object is passed on under `input`. */
function parseToolInput(argumentsText: string): Record<string, unknown> {
  try {
    const value: unknown = parseJsonWithinDepth(argumentsText === '' ? '{}' : argumentsText);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // The server validates tool input itself; hand it the text so it can say what was wrong.
  }
  return { input: argumentsText };
}
