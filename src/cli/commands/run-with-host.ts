/**
 * The part of `mcp-host run` after its checks: the host opened with the terminal's approvers, the run streamed to
 * stdout, and the host closed. Loaded only once the model and its key are known to be there.
 */
import { createTerminalClientFeatures } from '../../client-features/terminal-client-features.js';
import type { HostConfig } from '../../config/types.js';
import type { Host } from '../../host/create-host.js';
import type { AgentEvent } from '../../loop/events.js';
import { createControlCodeStream } from '../../text/control-code-stream.js';
import { chooseApprover } from '../choose-approver.js';
import { CliError, EXIT_OK, EXIT_RUN_FAILED, EXIT_SIGINT } from '../exit-codes.js';
import { handleInterruptions } from '../interrupt.js';
import { openHost } from '../open-host.js';
import { writeError, writeJson, writeOut } from '../output.js';
import { createTracer, traceDiscovery } from '../trace-printer.js';
import { viewNote } from '../view-note.js';
import { createWarningPrinter } from '../warning-printer.js';
import type { PromptInvocation } from './prompts.js';
import type { RunCommandOptions } from './run.js';

export async function runWithHost({
  prompt,
  serverPrompt,
  config,
  options,
}: {
  prompt: string;
  serverPrompt: PromptInvocation | undefined;
  config: HostConfig;
  options: RunCommandOptions;
}): Promise<number> {
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
  // Kept outside the run for --json: a run that fails still writes what it did as JSON.
  const events: AgentEvent[] = [];
  let model: string | undefined;
  try {
    if (interruption.exitCode !== undefined) return interruption.exitCode;
    const provider = await host.provider();
    model = `${provider.provider}:${provider.model}`;
    if (provider.provider === 'scripted') {
      writeError(
        `mcp-host: using the offline scripted model (${provider.model}); it answers only the prompts its script knows. To use a real model, set ANTHROPIC_API_KEY (or another provider's key) and pass --model, e.g. --model anthropic:claude-sonnet-4-6.`,
      );
    }
    if (options.trace) traceDiscovery(host, host.config.secrets);
    const tracer = options.trace ? createTracer(host.config.secrets) : undefined;
    let printedText = false;
    // A control sequence cut between two pieces of the answer is removed whole, not its tail printed as text.
    const streamed = createControlCodeStream();
    // Each warning once per run, and never in the middle of a question on the terminal.
    const showWarning = createWarningPrinter(terminal.prompter);
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
          writeOut(streamed.push(event.text));
          printedText = true;
        } else if (event.type === 'model-response' && printedText) {
          writeOut(`${streamed.end()}\n`);
          printedText = false;
        } else if (event.type === 'model-response' && !options.stream) {
          const text = event.message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
          if (text) writeOut(`${text}\n`);
        }
      },
    });
    if (options.json) {
      writeJson({
        model,
        stopReason: result.stopReason,
        text: result.text,
        turns: result.turns,
        usage: result.usage,
        message: result.message,
        toolCalls: toolCallsOf(events),
        messages: result.messages,
      });
    }
    if (result.stopReason === 'aborted') return interruption.exitCode ?? EXIT_SIGINT;
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
    const message = `the run failed: ${error instanceof Error ? error.message : String(error)}`;
    // A script reading --json gets JSON whatever the outcome: the failure and the calls made before it.
    if (options.json) writeJson({ model, stopReason: 'error', message, toolCalls: toolCallsOf(events) });
    throw new CliError(message, EXIT_RUN_FAILED);
  } finally {
    terminal.close();
    // Still listening while the servers close: a second signal stops them at once.
    await host.close();
    interruption.dispose();
  }
}

/** The calls a run made, as --json lists them. */
function toolCallsOf(events: readonly AgentEvent[]) {
  return events
    .filter((event) => event.type === 'tool-call-end')
    .map((event) => ({
      callId: event.callId,
      name: event.name,
      server: event.server,
      outcome: event.outcome,
      durationMs: event.durationMs,
      isError: event.result.isError,
      content: event.result.content,
    }));
}
