/** `mcp-host run PROMPT`: one agent run; streams the answer to stdout. */

import { Command } from 'commander';
import { loadConfig } from '../../config/load-config.js';
import { chosenStateDir } from '../../config/state-dir.js';
import { quoteShellWord } from '../../json/quote-shell-word.js';
import { checkModelKey } from '../check-model-key.js';
import { addCommonOptions, type CommonOptions, parsePositiveInteger } from '../common-options.js';
import { writeConfigWarnings } from '../config-warnings.js';
import { CliError, EXIT_USAGE } from '../exit-codes.js';
import { noServersNote } from '../no-servers-note.js';
import { readPromptFromStdin } from '../read-prompt.js';

export interface RunCommandOptions extends CommonOptions {
  yes?: boolean;
  json?: boolean;
  trace?: boolean;
  maxTurns?: number;
  /** `--system TEXT`: the system prompt, over the config's `system`. */
  system?: string;
  /** `--max-output-tokens N`, over the config's `maxOutputTokens`. */
  maxOutputTokens?: number;
  stream: boolean;
  /** `server:NAME` then `key=value` arguments. */
  prompt?: string[];
  allowSampling?: boolean;
  verbose?: boolean;
  /** `--no-instructions` makes this false. */
  instructions: boolean;
}

export function createRunCommand(): Command {
  const command = new Command('run')
    .description('run the agent once on PROMPT and print its answer')
    .argument(
      '[prompt]',
      "what to ask the model; - (or none, from a pipe) reads it from standard input (with --prompt: added after the server prompt's messages)",
    )
    .option('-y, --yes', 'approve every tool call not denied by a rule (audited as such)')
    .option('--json', 'print the whole transcript as JSON on stdout instead of the streamed answer')
    .option('--trace', 'show the lifecycle on stderr: discovery, each translation, decision, execution, result')
    .option('--max-turns <n>', 'model turns before the run is stopped (default 20)', parsePositiveInteger)
    .option('--system <text>', "the model's system prompt (replaces the config's `system`)")
    .option(
      '--max-output-tokens <n>',
      "the most tokens the model may write in one response (default: the config's maxOutputTokens, else 4096 for Anthropic and the provider's own for others)",
      parsePositiveInteger,
    )
    .option('--no-stream', 'ask the provider for whole responses instead of a stream')
    .option(
      '--prompt <reference...>',
      'start from a server prompt: server:NAME key=value … (its messages open the run; end its words with -- before a question)',
    )
    .option('--allow-sampling', 'with no terminal to ask: let servers use the model (sampling) without asking')
    .option('--verbose', "show servers' log messages on stderr (they are always kept in a per-server log file)")
    .option(
      '--no-instructions',
      'leave AGENTS.md, CLAUDE.md and the project memory out of the system prompt for this run',
    );
  addCommonOptions(command);
  // Words past the first are refused here rather than by commander, to say how to write them as one prompt.
  command.allowExcessArguments();
  return command.action(async (given: string | undefined, options: RunCommandOptions, self: Command) => {
    if (self.args.length > 1) {
      throw new CliError(
        `run takes the prompt as one argument, and got ${self.args.length} words: put it in quotes, as in mcp-host run ${quoteShellWord(self.args.join(' '))}`,
        EXIT_USAGE,
      );
    }
    // `run -`, or a pipe with no prompt argument: the prompt is standard input.
    const fromStdin = given === '-' || (given === undefined && options.prompt === undefined && !process.stdin.isTTY);
    // With no prompt argument, empty input means none was given at all: say how to give one.
    const prompt = fromStdin ? await readPromptFromStdin(process.stdin, given === '-') : given;
    // An empty argument (`run ""`, an unset shell variable) is refused as empty input is: nothing would be asked.
    if (prompt !== undefined && prompt.trim() === '' && options.prompt === undefined) {
      throw new CliError('the prompt is empty: say what to ask, as in mcp-host run "PROMPT"', EXIT_USAGE);
    }
    if (prompt === undefined && options.prompt === undefined) {
      throw new CliError(
        'say what to ask: mcp-host run "PROMPT", or start from a server prompt with --prompt server:NAME',
        EXIT_USAGE,
      );
    }
    process.exitCode = await runCommand(prompt ?? '', options);
  });
}

async function runCommand(prompt: string, options: RunCommandOptions): Promise<number> {
  const [reference, ...pairs] = options.prompt ?? [];
  // `--prompt` takes every word after it: a question written last was taken for one of the prompt's arguments.
  const question = pairs.find((pair) => pair.indexOf('=') <= 0);
  if (reference !== undefined && question !== undefined) {
    throw new CliError(
      `prompt argument ${JSON.stringify(question)} is not key=value; to ask something after the server prompt, end its arguments with -- (mcp-host run --prompt ${quoteShellWord(reference)} -- ${quoteShellWord(question)}) or write the question before --prompt`,
      EXIT_USAGE,
    );
  }
  const serverPrompt =
    reference !== undefined ? (await import('./prompts.js')).parsePromptArguments(reference, pairs) : undefined;
  // The model and its key are checked before any server starts, and before the host's modules load: a missing key
  // is found in a moment, not after them.
  const config = await loadConfig({ configPath: options.config, stateDir: options.stateDir });
  const noServers = noServersNote(config, { stateDir: chosenStateDir(options.stateDir) });
  // A run with no tools at all is almost always a config in the wrong place; say so instead of running without them.
  if (noServers !== undefined) {
    writeConfigWarnings(config);
    throw new CliError(noServers, EXIT_USAGE);
  }
  try {
    checkModelKey({ model: options.model, baseUrl: options.baseUrl, config, env: process.env });
  } catch (error) {
    writeConfigWarnings(config);
    throw error;
  }
  const { runWithHost } = await import('./run-with-host.js');
  return runWithHost({ prompt, serverPrompt, config, options });
}
