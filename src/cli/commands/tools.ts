/** `mcp-host tools list|call`: the catalog, and calling one tool directly (no model needed). */
import { Command } from 'commander';
import { CliError, EXIT_OK, EXIT_RUN_FAILED, EXIT_USAGE } from '../exit-codes.js';
import { addCommonOptions, type CommonOptions, openHost } from '../open-host.js';
import { writeError, writeJson, writeLine } from '../output.js';
import { parseKeyValues } from '../parse-key-values.js';

export function createToolsCommand(): Command {
  const tools = new Command('tools').description('list the tools of every server, or call one');

  const list = new Command('list')
    .description('list every tool under its namespaced name')
    .option('--json', 'print JSON');
  addCommonOptions(list);
  list.action(async (options: CommonOptions & { json?: boolean }) => {
    const host = await openHost(options);
    try {
      if (options.json) {
        writeJson(
          host.catalog().entries.map((entry) => ({
            name: entry.name,
            server: entry.server,
            tool: entry.tool.name,
            description: entry.tool.description,
            inputSchema: entry.tool.inputSchema,
            outputSchema: entry.tool.outputSchema,
            annotations: entry.tool.annotations,
          })),
        );
      } else {
        for (const entry of host.catalog().entries) {
          const description = (entry.tool.description ?? '').split('\n')[0] ?? '';
          writeLine(`${entry.name}${description ? `  ${description}` : ''}`);
        }
      }
      process.exitCode = host.failures().length > 0 && host.catalog().size === 0 ? EXIT_RUN_FAILED : EXIT_OK;
    } finally {
      await host.close();
    }
  });

  const call = new Command('call')
    .description('call one tool directly: NAME key=value … (values typed by the input schema) or --args JSON')
    .argument('<name>', 'namespaced tool name, as `tools list` shows it')
    .argument('[pairs...]', 'arguments as key=value')
    .option('--args <json>', 'arguments as one JSON object (merged under key=value pairs)')
    .option('--json', 'print the result as JSON');
  addCommonOptions(call);
  call.action(async (name: string, pairs: string[], options: CommonOptions & { args?: string; json?: boolean }) => {
    const host = await openHost(options);
    try {
      const entry = host.catalog().resolve(name);
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
      const executed = await host.callTool(name, args);
      if (options.json) {
        writeJson({
          outcome: executed.outcome,
          isError: executed.result.isError,
          result: executed.rawResult ?? executed.result,
        });
      } else {
        for (const part of executed.result.content) {
          if (part.type === 'text') writeLine(part.text);
          else writeLine(`[image ${part.mimeType}, ${Math.round((part.data.length * 3) / 4)} bytes]`);
        }
      }
      if (executed.result.isError) writeError(`mcp-host: the call ended with ${executed.outcome}`);
      process.exitCode = executed.result.isError ? EXIT_RUN_FAILED : EXIT_OK;
    } finally {
      await host.close();
    }
  });

  return tools.addCommand(list).addCommand(call);
}
