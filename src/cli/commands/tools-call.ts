/**
 * `mcp-host tools call NAME key=value …`: one tool called directly, no model needed. Loaded only when that command
 * runs, so `tools list` does not load the terminal's approvers, argument parsing and result printing.
 */

import { type Stats, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { createTerminalClientFeatures } from '../../client-features/terminal-client-features.js';
import { loadConfig } from '../../config/load-config.js';
import { spilledStandIn } from '../../connections/spilled-text.js';
import type { Host, HostOptions } from '../../host/create-host.js';
import { loadJsonSchemaEngines } from '../../json/json-schema-engines.js';
import { assignOwnProperties } from '../../json/own-property.js';
import type { ExecutedToolCall } from '../../loop/tool-call-types.js';
import { callOutcomeSentence } from '../call-outcome-sentence.js';
import { chooseApprover } from '../choose-approver.js';
import { serversForToolName } from '../choose-servers.js';
import type { CommonOptions } from '../common-options.js';
import { CliError, EXIT_OK, EXIT_RUN_FAILED, EXIT_USAGE } from '../exit-codes.js';
import { withInterruptibleHost } from '../interrupt.js';
import { openHost } from '../open-host.js';
import { writeError } from '../output.js';
import { parseKeyValues } from '../parse-key-values.js';
import { printCallJson } from '../print-call-json.js';
import { printCallResult } from '../print-call-result.js';
import { stoppedForUnapprovedConfig } from '../unapproved-config-stop.js';
import { unknownToolMessage } from '../unknown-tool-message.js';
import { viewNote } from '../view-note.js';
import { createWarningPrinter } from '../warning-printer.js';
import type { WholeTextOf } from '../whole-text-runs.js';

export interface CallOptions {
  args?: string;
  json?: boolean;
  save?: string;
  allowSampling?: boolean;
}

export async function callToolCommand(
  name: string,
  pairs: string[],
  options: CommonOptions & CallOptions,
): Promise<void> {
  // Found wrong only once the result arrives, the call would have run for nothing: checked before any server starts.
  if (options.save !== undefined) checkSaveFolder(options.save);
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
    await callOneTool(name, pairs, options, extra, createWarningPrinter(terminal.prompter));
  } finally {
    terminal.close();
  }
}

/** `--args JSON`: one JSON object, or none given. */
function parseArgsOption(text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {};
  let args: unknown;
  try {
    args = JSON.parse(text);
  } catch (error) {
    throw new CliError(
      `--args is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
      EXIT_USAGE,
    );
  }
  if (args === null || typeof args !== 'object' || Array.isArray(args)) {
    throw new CliError('--args must be a JSON object', EXIT_USAGE);
  }
  return args as Record<string, unknown>;
}

/** `--save DIR` names a folder, or nothing yet (it is created when there is something to save). */
function checkSaveFolder(folder: string): void {
  let stats: Stats;
  try {
    stats = statSync(folder);
  } catch {
    return;
  }
  if (!stats.isDirectory()) {
    throw new CliError(
      `--save ${resolve(folder)}: expected a folder to write images, audio and blobs into, found a file; name a folder (it is created when missing)`,
      EXIT_USAGE,
    );
  }
}

async function callOneTool(
  name: string,
  pairs: string[],
  options: CommonOptions & CallOptions,
  extra: Partial<HostOptions>,
  showWarning: (message: string) => void,
): Promise<void> {
  // A mistake in them is the command line's to fix, told before any server starts.
  const args = parseArgsOption(options.args);
  await withInterruptibleHost(
    (signal) => {
      const opening = openHostForTool(name, options, signal, extra);
      // The validator for the call's arguments loads while the server starts, not after it answers.
      setImmediate(() => void loadJsonSchemaEngines());
      return opening;
    },
    async (host, signal) => {
      if (stoppedForUnapprovedConfig(host)) return;
      const entry = host.catalog().resolve(name);
      // Told to the person here: what is withheld, why, and the command that approves it.
      const withheld = entry ? undefined : host.withheldNotice(name);
      if (withheld !== undefined) throw new CliError(withheld, EXIT_RUN_FAILED);
      if (!entry) {
        const close = host.catalog().suggest(name);
        throw new CliError(unknownToolMessage(name, close, '`mcp-host tools list`'), EXIT_USAGE);
      }
      assignOwnProperties(args, parseKeyValues(pairs, entry.tool.inputSchema));
      // As `run` says it: e.g. that the call is sent once more after its server went away.
      const executed = await host.callTool(name, args, { signal, onWarning: showWarning });
      const note = viewNote(host.catalog(), name);
      if (note !== undefined) writeError(`mcp-host: ${note}`);
      // A text too long to hold in memory is printed whole, from its stored copy.
      const wholeTextOf = wholeTextsOf(host, executed);
      const printed = options.json
        ? await printCallJson(
            {
              outcome: executed.outcome,
              isError: executed.result.isError,
              result: executed.rawResult ?? executed.result,
            },
            { secrets: host.config.secrets, signal, ...(wholeTextOf === undefined ? {} : { wholeTextOf }) },
          )
        : executed.serverExit !== undefined
          ? // The host's text says only how the server went away, which its report on stderr said as it happened.
            true
          : // The server's own result; the host's when the call never reached it (denied, unknown, timed out).
            await printCallResult((executed.rawResult ?? executed.result) as Parameters<typeof printCallResult>[0], {
              isError: executed.result.isError === true,
              secrets: host.config.secrets,
              signal,
              ...(wholeTextOf === undefined ? {} : { wholeTextOf }),
              ...(options.save === undefined ? {} : { saveDirectory: options.save }),
            });
      if (executed.result.isError && !saysHowItEnded(executed)) {
        writeError(`mcp-host: ${callOutcomeSentence(executed.outcome, entry.server)}`);
      }
      // Arguments the tool's schema refuses are the command line's to fix, as a value of the wrong type is: the call
      // was not sent. Only part of what the tool gave was printed: a script must not take it for the whole.
      process.exitCode =
        executed.outcome === 'invalid' ? EXIT_USAGE : executed.result.isError || !printed ? EXIT_RUN_FAILED : EXIT_OK;
    },
  );
}

/**
 * The host's own text of a call it could not complete ("The tool call failed: …", printed above) says how it ended:
 * a closing line would say it again. A denial or refused arguments say why, not how, and a server's text neither.
 */
function saysHowItEnded(executed: ExecutedToolCall): boolean {
  return (
    executed.rawResult === undefined &&
    executed.serverExit === undefined &&
    executed.outcome !== 'denied' &&
    executed.outcome !== 'invalid'
  );
}

/** The whole texts behind the stand-ins of a result whose texts were too long to hold in memory. */
function wholeTextsOf(host: Host, executed: ExecutedToolCall): WholeTextOf | undefined {
  if (executed.spilledTexts === undefined) return undefined;
  const byStandIn = new Map(executed.spilledTexts.map((facts) => [spilledStandIn(facts), facts.id]));
  return (text) => {
    const id = byStandIn.get(text);
    return id === undefined ? undefined : host.readStoredText(id);
  };
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
