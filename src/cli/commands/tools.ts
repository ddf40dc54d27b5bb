/**
 * `mcp-host tools list|call`: the catalog (with `--tokens`, what each tool definition costs on every
 * request, estimated offline), and calling one tool directly (no model needed).
 */

import { Command } from 'commander';
import type { Host } from '../../host/create-host.js';
import { CommandGroup } from '../command-group.js';
import { addCommonOptions, addServerFilterOption, type CommonOptions } from '../common-options.js';
import { EXIT_OK, EXIT_RUN_FAILED } from '../exit-codes.js';
import { withInterruptibleHost } from '../interrupt.js';
import { listingExitCode } from '../listing-exit-code.js';
import { openHost } from '../open-host.js';
import { writeJson, writeLine } from '../output.js';
import { summaryLine } from '../summary-line.js';
import type { CallOptions } from './tools-call.js';

export function createToolsCommand(): Command {
  const tools = new CommandGroup('tools').description('list the tools of every server, or call one');

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
          // Loaded only with --tokens: the schema normalisers and the tokenizer are of no use to a plain listing.
          await (await import('./tools-tokens.js')).listToolTokens(host, options);
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
        process.exitCode = listingExitCode(
          host,
          host.failures().length > 0 && host.catalog().size === 0 ? EXIT_RUN_FAILED : EXIT_OK,
        );
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
    // Loaded here, so that listing does not load what calling needs.
    const { callToolCommand } = await import('./tools-call.js');
    await callToolCommand(name, pairs, options);
  });

  return tools.listByDefault(list).addCommand(call);
}

/** Listed tools no approval can make callable (they require MCP tasks), shown so their absence is explained. */
function unsupportedTools(host: Host): Array<{ name: string; server: string; tool: string; reason: string }> {
  return host
    .servers()
    .flatMap((server) => (server.unsupportedTools ?? []).map((item) => ({ ...item, server: server.name })));
}
