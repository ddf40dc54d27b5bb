/** `mcp-host run PROMPT`: one agent run; streams the answer to stdout. */

import { Command } from 'commander';
import { createTerminalClientFeatures } from '../../client-features/terminal-client-features.js';
import { loadConfig } from '../../config/load-config.js';
import type { Host } from '../../host/create-host.js';
import type { AgentEvent } from '../../loop/events.js';
import { checkModelKey } from '../check-model-key.js';
import { chooseApprover } from '../choose-approver.js';
import { CliError, EXIT_OK, EXIT_RUN_FAILED, EXIT_USAGE } from '../exit-codes.js';
import { handleInterruptions } from '../interrupt.js';
import { noServersNote } from '../no-servers-note.js';
import { addCommonOptions, type CommonOptions, openHost, parsePositiveInteger } from '../open-host.js';
import { writeError, writeJson, writeOut } from '../output.js';
import { readPromptFromStdin } from '../read-prompt.js';
import { createTracer, traceDiscovery } from '../trace-printer.js';
import { viewNote } from '../view-note.js';
import { parsePromptArguments } from './prompts.js';

interface RunCommandOptions extends CommonOptions {
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
      'start from a server prompt: server:NAME key=value … (its messages open the run)',
    )
    .option('--allow-sampling', 'with no terminal to ask: let servers use the model (sampling) without asking')
    .option('--verbose', "show servers' log messages on stderr (they are always kept in a per-server log file)")
    .option(
      '--no-instructions',
      'leave AGENTS.md, CLAUDE.md and the project memory out of the system prompt for this run',
    );
  addCommonOptions(command);
  return command.action(async (given: string | undefined, options: RunCommandOptions) => {
    // `run -`, or a pipe with no prompt argument: the prompt is standard input.
    const fromStdin = given === '-' || (given === undefined && options.prompt === undefined && !process.stdin.isTTY);
    // With no prompt argument, empty input means none was given at all: say how to give one.
    const prompt = fromStdin ? await readPromptFromStdin(process.stdin, given === '-') : given;
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
  const serverPrompt = reference !== undefined ? parsePromptArguments(reference, pairs) : undefined;
  // The model and its key are checked before any server starts: a missing key is found in a moment, not after them.
  const config = await loadConfig({ configPath: options.config, stateDir: options.stateDir });
  const noServers = noServersNote(config);
  // A run with no tools at all is almost always a config in the wrong place; say so instead of running without them.
  if (noServers !== undefined) throw new CliError(noServers, EXIT_USAGE);
  checkModelKey({ model: options.model, baseUrl: options.baseUrl, config, env: process.env });
  const terminal = createTerminalClientFeatures({
    interactive: process.stdin.isTTY === true && process.stderr.isTTY === true,
    input: process.stdin,
    output: process.stderr,
    allowSampling: options.allowSampling,
    verbose: options.verbose,
    prefix: 'mcp-host: ',
  });
  const interruption = handleInterruptions();
  let host: Host;
  try {
    host = await openHost(options, {
      config,
      signal: interruption.signal,
      maxTurns: options.maxTurns,
      ...(options.system === undefined ? {} : { system: options.system }),
      ...(options.maxOutputTokens === undefined ? {} : { maxOutputTokens: options.maxOutputTokens }),
      stream: options.stream,
      instructions: options.instructions,
      clientRequestApprover: terminal.clientRequestApprover,
      // One reader of the terminal for every question, so no typed answer reaches the wrong one.
      approver: chooseApprover(options, terminal.prompter),
      allowSampling: terminal.allowSampling,
      onServerLog: terminal.onServerLog,
      onProgress: terminal.onProgress,
    });
  } catch (error) {
    interruption.dispose();
    terminal.close();
    // Start-up stopped by Ctrl-C or SIGTERM: the signal is the outcome, not the error it caused.
    if (interruption.exitCode !== undefined) return interruption.exitCode;
    throw error;
  }
  interruption.serversOpened();
  try {
    if (interruption.exitCode !== undefined) return interruption.exitCode;
    const provider = await host.provider();
    if (provider.provider === 'scripted') {
      writeError(
        `mcp-host: using the offline scripted model (${provider.model}); it answers only the prompts its script knows. To use a real model, set ANTHROPIC_API_KEY (or another provider's key) and pass --model, e.g. --model anthropic:claude-sonnet-4-6.`,
      );
    }
    if (options.trace) traceDiscovery(host);
    const tracer = options.trace ? createTracer(host.config.secrets) : undefined;
    const events: AgentEvent[] = [];
    let printedText = false;
    // Each warning once per run, and never in the middle of a question on the terminal.
    const shownWarnings = new Set<string>();
    const showWarning = (message: string): void => {
      if (shownWarnings.has(message)) return;
      shownWarnings.add(message);
      if (terminal.prompter) void terminal.prompter.exclusive(async () => writeError(`mcp-host: ${message}`));
      else writeError(`mcp-host: ${message}`);
    };
    const result = await host.run(prompt, {
      signal: interruption.signal,
      ...(serverPrompt ? { prompt: serverPrompt } : {}),
      onEvent: (event) => {
        tracer?.(event);
        // Warnings (e.g. a tool that reaches outside systems) go to stderr whatever the output format.
        if (event.type === 'tool-call-warning') showWarning(event.message);
        if (event.type === 'tool-call-end') {
          const note = viewNote(host.catalog(), event.name);
          if (note !== undefined) showWarning(note);
        }
        if (options.json) {
          if (event.type !== 'text-delta' && event.type !== 'tool-call-delta') events.push(event);
          return;
        }
        if (event.type === 'text-delta') {
          writeOut(event.text);
          printedText = true;
        } else if (event.type === 'model-response' && printedText) {
          writeOut('\n');
          printedText = false;
        } else if (event.type === 'model-response' && !options.stream) {
          const text = event.message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
          if (text) writeOut(`${text}\n`);
        }
      },
    });
    if (options.json) {
      writeJson({
        model: `${provider.provider}:${provider.model}`,
        stopReason: result.stopReason,
        text: result.text,
        turns: result.turns,
        usage: result.usage,
        message: result.message,
        toolCalls: events
          .filter((event) => event.type === 'tool-call-end')
          .map((event) => ({
            callId: event.callId,
            name: event.name,
            server: event.server,
            outcome: event.outcome,
            durationMs: event.durationMs,
            isError: event.result.isError,
            content: event.result.content,
          })),
        messages: result.messages,
      });
    }
    if (result.stopReason === 'aborted') return interruption.exitCode ?? 130;
    if (result.stopReason === 'max-turns') {
      writeError(`mcp-host: ${result.message}`);
      return EXIT_RUN_FAILED;
    }
    return EXIT_OK;
  } catch (error) {
    // Whatever failed after a signal failed because of it.
    if (interruption.exitCode !== undefined) return interruption.exitCode;
    if (error instanceof CliError) throw error;
    const name = error instanceof Error ? error.name : '';
    if (name === 'ModelChoiceError' || name === 'ConfigError' || name === 'PromptChoiceError') throw error;
    throw new CliError(`the run failed: ${error instanceof Error ? error.message : String(error)}`, EXIT_RUN_FAILED);
  } finally {
    terminal.close();
    // Still listening while the servers close: a second signal stops them at once.
    await host.close();
    interruption.dispose();
  }
}
