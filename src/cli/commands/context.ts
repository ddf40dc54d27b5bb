/**
 * `mcp-host context`: what goes to the model on every request, part by part with its token cost — the project
 * instructions and memory, the skills listing, and the tool definitions — so a user can see what a project's
 * AGENTS.md, its skills and its servers cost before a run. Estimates are offline (o200k encoding). Starts the
 * servers to list their tools; calls no model.
 */
import { Command } from 'commander';
import { estimateToolListTokens } from '../../providers/token-estimate/index.js';
import { addCommonOptions, type CommonOptions } from '../common-options.js';
import { EXIT_OK } from '../exit-codes.js';
import { withInterruptibleHost } from '../interrupt.js';
import { listingExitCode } from '../listing-exit-code.js';
import { openHost } from '../open-host.js';
import { writeJson, writeLine } from '../output.js';

interface ContextOptions extends CommonOptions {
  json?: boolean;
  show?: boolean;
  instructions: boolean;
}

export function createContextCommand(): Command {
  const command = new Command('context')
    .description('show what goes to the model on every request (instructions, memory, skills, tools) and its tokens')
    .option('--json', 'print JSON (with the system prompt text)')
    .option('--show', 'print the system prompt itself after the summary')
    .option('--no-instructions', 'as a run with --no-instructions would send it');
  addCommonOptions(command);
  return command.action(async (options: ContextOptions) => {
    await withInterruptibleHost(
      () => openHost(options, { instructions: options.instructions }),
      async (host) => {
        const prompt = host.systemPrompt();
        const tools = host.toolDefinitions();
        const toolTokens = estimateToolListTokens(tools);
        const { offered, withheld } = host.skills();
        if (options.json) {
          writeJson({
            systemPrompt: { text: prompt.text ?? '', tokens: prompt.tokens, parts: prompt.parts },
            skills: {
              offered: offered.map((skill) => skill.name),
              withheld: withheld.map((entry) => entry.skill.name),
            },
            tools: { count: tools.length, tokens: toolTokens },
            totalTokens: prompt.tokens + toolTokens,
          });
          process.exitCode = listingExitCode(host, EXIT_OK);
          return;
        }
        writeLine('Sent with every request (tokens, offline o200k estimate):');
        // As wide as the longest label, a part's indented kind ("  server-instructions"), so the numbers line up.
        const row = (label: string, source: string, tokens: number) =>
          writeLine(`  ${label.padEnd(21)} ${String(tokens).padStart(7)}  ${source}`.trimEnd());
        row('system prompt', '', prompt.tokens);
        for (const part of prompt.parts) row(`  ${part.kind}`, part.source, part.tokens);
        row('tools', `${tools.length} tool definition${tools.length === 1 ? '' : 's'}`, toolTokens);
        row('total', '', prompt.tokens + toolTokens);
        for (const entry of withheld) writeLine(`withheld: ${entry.message}`);
        if (options.show && prompt.text !== undefined) {
          writeLine('');
          writeLine(prompt.text);
        }
        process.exitCode = listingExitCode(host, EXIT_OK);
      },
    );
  });
}
