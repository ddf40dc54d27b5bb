/**
 * `mcp-host tools list|call`: the catalog (with `--tokens`, what each tool definition costs on every
 * request, estimated offline), and calling one tool directly (no model needed).
 */

import { Command } from 'commander';
import { redactValues } from '../../audit/redact.js';
import { createTerminalClientFeatures } from '../../client-features/terminal-client-features.js';
import { loadConfig } from '../../config/load-config.js';
import type { Host, HostOptions } from '../../host/create-host.js';
import { chooseModel, ModelChoiceError, type ProviderId, parseModelSpec } from '../../host/model-choice.js';
import type { SchemaTarget } from '../../providers/schema/index.js';
import { callOutcomeSentence } from '../call-outcome-sentence.js';
import { chooseApprover } from '../choose-approver.js';
import { serversForToolName } from '../choose-servers.js';
import { CliError, EXIT_OK, EXIT_RUN_FAILED, EXIT_USAGE } from '../exit-codes.js';
import { withInterruptibleHost } from '../interrupt.js';
import { addCommonOptions, addServerFilterOption, type CommonOptions, openHost } from '../open-host.js';
import { writeError, writeJson, writeLine } from '../output.js';
import { parseKeyValues } from '../parse-key-values.js';
import { printCallResult } from '../print-call-result.js';
import { summaryLine } from '../summary-line.js';
import { viewNote } from '../view-note.js';

interface CallOptions {
  args?: string;
  json?: boolean;
  save?: string;
  allowSampling?: boolean;
}

export function createToolsCommand(): Command {
  const tools = new Command('tools').description('list the tools of every server, or call one');

  const list = new Command('list')
    .description('list every tool under its namespaced name')
    .option('--json', 'print JSON')
    .option(
      '--tokens',
      "estimate (offline) the tokens each tool definition costs on every request, per tool and per server, in the chosen model's tool format",
    );
  addServerFilterOption(addCommonOptions(list));
  list.action(async (options: CommonOptions & { json?: boolean; tokens?: boolean }) => {
    await withInterruptibleHost(
      (signal) => openHost(options, { signal }),
      async (host) => {
        if (options.tokens) {
          await listToolTokens(host, options);
        } else if (options.json) {
          writeJson([
            ...host.catalog().entries.map((entry) => ({
              name: entry.name,
              server: entry.server,
              tool: entry.tool.name,
              description: entry.tool.description,
              inputSchema: entry.tool.inputSchema,
              outputSchema: entry.tool.outputSchema,
              annotations: entry.tool.annotations,
            })),
            ...unsupportedTools(host).map((item) => ({
              name: item.name,
              server: item.server,
              tool: item.tool,
              withheld: item.reason,
            })),
          ]);
        } else {
          for (const entry of host.catalog().entries) {
            const description = summaryLine(entry.tool.description);
            writeLine(`${entry.name}${description ? `  ${description}` : ''}`);
          }
          for (const item of unsupportedTools(host)) writeLine(`${item.name}  [withheld: ${item.reason}]`);
        }
        process.exitCode = host.failures().length > 0 && host.catalog().size === 0 ? EXIT_RUN_FAILED : EXIT_OK;
      },
    );
  });

  const call = new Command('call')
    .description('call one tool directly: NAME key=value … (values typed by the input schema) or --args JSON')
    .argument('<name>', 'namespaced tool name, as `tools list` shows it')
    .argument('[pairs...]', 'arguments as key=value')
    .option('--args <json>', 'arguments as one JSON object (merged under key=value pairs)')
    .option('--json', 'print the result as JSON')
    .option('--save <dir>', 'write images, audio and blobs of the result to files in this folder')
    .option('--allow-sampling', 'with no terminal to ask: let servers use the model (sampling) without asking');
  addCommonOptions(call);
  call.action(async (name: string, pairs: string[], options: CommonOptions & CallOptions) => {
    // As `run` does: on a terminal the person there answers consent, sampling and elicitation and sees progress;
    // without one, what is declined is said on stderr.
    const terminal = createTerminalClientFeatures({
      interactive: process.stdin.isTTY === true && process.stderr.isTTY === true,
      input: process.stdin,
      output: process.stderr,
      allowSampling: options.allowSampling,
      prefix: 'mcp-host: ',
    });
    const extra: Partial<HostOptions> = {
      clientRequestApprover: terminal.clientRequestApprover,
      approver: chooseApprover(options, terminal.prompter),
      allowSampling: terminal.allowSampling,
      ...(terminal.onProgress ? { onProgress: terminal.onProgress } : {}),
    };
    try {
      await callOneTool(name, pairs, options, extra);
    } finally {
      terminal.close();
    }
  });

  return tools.addCommand(list).addCommand(call);
}

async function callOneTool(
  name: string,
  pairs: string[],
  options: CommonOptions & CallOptions,
  extra: Partial<HostOptions>,
): Promise<void> {
  await withInterruptibleHost(
    (signal) => openHostForTool(name, options, signal, extra),
    async (host, signal) => {
      const entry = host.catalog().resolve(name);
      const withheld = entry ? undefined : host.withheldReason(name);
      // The explanation is a whole sentence that ends by saying the tool cannot be called.
      if (withheld !== undefined) throw new CliError(`${name}: ${withheld}`, EXIT_RUN_FAILED);
      if (!entry) {
        const close = host.catalog().suggest(name);
        throw new CliError(
          `unknown tool "${name}"${close.length ? ` (did you mean ${close.join(', ')}?)` : ''}`,
          EXIT_USAGE,
        );
      }
      let args: Record<string, unknown> = {};
      if (options.args !== undefined) {
        try {
          args = JSON.parse(options.args) as Record<string, unknown>;
        } catch (error) {
          throw new CliError(
            `--args is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
            EXIT_USAGE,
          );
        }
        if (args === null || typeof args !== 'object' || Array.isArray(args)) {
          throw new CliError('--args must be a JSON object', EXIT_USAGE);
        }
      }
      Object.assign(args, parseKeyValues(pairs, entry.tool.inputSchema));
      const executed = await host.callTool(name, args, { signal });
      const note = viewNote(host.catalog(), name);
      if (note !== undefined) writeError(`mcp-host: ${note}`);
      if (options.json) {
        writeJson({
          outcome: executed.outcome,
          isError: executed.result.isError,
          result: redactValues(executed.rawResult ?? executed.result, { secrets: host.config.secrets }),
        });
      } else {
        // The server's own result; the host's when the call never reached it (denied, unknown, timed out).
        printCallResult((executed.rawResult ?? executed.result) as Parameters<typeof printCallResult>[0], {
          isError: executed.result.isError === true,
          secrets: host.config.secrets,
          ...(options.save === undefined ? {} : { saveDirectory: options.save }),
        });
      }
      if (executed.result.isError) writeError(`mcp-host: ${callOutcomeSentence(executed.outcome)}`);
      process.exitCode = executed.result.isError ? EXIT_RUN_FAILED : EXIT_OK;
    },
  );
}

/** Listed tools no approval can make callable (they require MCP tasks), shown so their absence is explained. */
function unsupportedTools(host: Host): Array<{ name: string; server: string; tool: string; reason: string }> {
  return host
    .servers()
    .flatMap((server) => (server.unsupportedTools ?? []).map((item) => ({ ...item, server: server.name })));
}

/**
 * A host with only the server the tool's name points at, when that is fewer than all; every server when the name
 * points at none or the tool is not there (a hashed or mistyped name), so suggestions cover the whole catalog.
 */
async function openHostForTool(
  name: string,
  options: CommonOptions,
  signal: AbortSignal,
  extra: Partial<HostOptions>,
): Promise<Host> {
  const config = await loadConfig({ configPath: options.config, stateDir: options.stateDir });
  const owners = serversForToolName(config, name);
  const enabled = config.servers.filter((server) => !server.disabled).length;
  if (owners.length > 0 && owners.length < enabled) {
    const host = await openHost({ ...options, server: owners }, { ...extra, signal });
    if (host.catalog().resolve(name) !== undefined || signal.aborted) return host;
    await host.close();
  }
  return openHost(options, { ...extra, signal });
}

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

async function listToolTokens(host: Host, options: CommonOptions & { json?: boolean }): Promise<void> {
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
