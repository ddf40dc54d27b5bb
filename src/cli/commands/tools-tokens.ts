/**
 * `mcp-host tools list --tokens`: what each tool definition costs on every request, estimated offline in the chosen
 * model's tool format. Loaded only with that option.
 */
import type { Host } from '../../host/create-host.js';
import { chooseModel, ModelChoiceError, type ProviderId, parseModelSpec } from '../../host/model-choice.js';
import type { SchemaTarget } from '../../providers/schema/index.js';
import type { CommonOptions } from '../common-options.js';
import { writeJson, writeLine } from '../output.js';
import { summaryLine } from '../summary-line.js';

/** The provider's tool format the estimate is for. */
const SCHEMA_TARGET_OF: Record<ProviderId, SchemaTarget> = {
  anthropic: 'anthropic',
  openai: 'openai-chat',
  'openai-responses': 'openai-responses',
  gemini: 'gemini',
  ollama: 'openai-compatible',
  'openai-compatible': 'openai-compatible',
  scripted: 'openai-chat',
};

/** The model `run` would use; with none configured, the OpenAI Chat format (the most common shape). */
function schemaTargetFor(host: Host, options: CommonOptions): { target: SchemaTarget; model?: string } {
  let spec: string;
  try {
    spec = chooseModel({ flag: options.model, config: host.config.model, env: process.env }).spec;
  } catch (error) {
    if (error instanceof ModelChoiceError) return { target: 'openai-chat' };
    throw error;
  }
  const { provider, model } = parseModelSpec(spec);
  return { target: SCHEMA_TARGET_OF[provider], model: `${provider}:${model}` };
}

export async function listToolTokens(host: Host, options: CommonOptions & { json?: boolean }): Promise<void> {
  const { target, model } = schemaTargetFor(host, options);
  // Loading the tokenizer takes most of a second: only this option pays for it.
  const { estimateToolTokens } = await import('../../providers/token-estimate/index.js');
  const entries = host.catalog().entries;
  const definitions = new Map(host.toolDefinitions().map((definition) => [definition.name, definition]));
  const tools = entries.map((entry) => {
    const definition = definitions.get(entry.name);
    return {
      name: entry.name,
      server: entry.server,
      tool: entry.tool.name,
      description: entry.tool.description,
      tokens: definition ? estimateToolTokens(definition, target) : 0,
    };
  });
  const servers = new Map<string, { name: string; tools: number; tokens: number }>();
  for (const tool of tools) {
    const total = servers.get(tool.server) ?? { name: tool.server, tools: 0, tokens: 0 };
    total.tools += 1;
    total.tokens += tool.tokens;
    servers.set(tool.server, total);
  }
  const totalTokens = tools.reduce((sum, tool) => sum + tool.tokens, 0);
  if (options.json) {
    writeJson({ format: target, model, tools, servers: [...servers.values()], totalTokens });
    return;
  }
  for (const tool of tools) {
    const description = summaryLine(tool.description);
    writeLine(`${tool.name}  ${tool.tokens} tokens${description ? `  ${description}` : ''}`);
  }
  for (const server of servers.values()) {
    writeLine(`server ${server.name}: ${server.tools} tools, ${server.tokens} tokens`);
  }
  writeLine(`total: ${tools.length} tools, ${totalTokens} tokens (estimated offline for the ${target} tool format)`);
}
