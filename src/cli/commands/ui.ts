/**
 * `mcp-host ui`: the web UI — servers, tools, approvals, trust, audit and chat in a browser — served on loopback.
 * The URL (with this start's token) is announced as every listening command announces its address (stdout, and a
 * sentence on stderr); everything else goes to stderr. Ctrl-C closes the UI and the servers.
 */

import { Command } from 'commander';
import { parseModelSpec } from '../../host/model-choice.js';
import { isLoopbackAddress } from '../../web/loopback.js';
import { openUiInBrowser } from '../../web/open-ui-in-browser.js';
import { startWebUi } from '../../web/start-web-ui.js';
import { announceAddress } from '../announce-address.js';
import { parseBaseUrl, parsePort, parsePositiveInteger, rootOption, STATE_DIR_HELP } from '../common-options.js';
import { CliError, EXIT_USAGE } from '../exit-codes.js';
import { handleInterruptions } from '../interrupt.js';
import { noServersNote } from '../no-servers-note.js';
import { writeError } from '../output.js';

interface UiOptions {
  config?: string;
  port?: number;
  open?: boolean;
  host?: string;
  model?: string;
  baseUrl?: string;
  timeout?: number;
  stateDir?: string;
  root?: string[];
}

export function createUiCommand(): Command {
  return new Command('ui')
    .description('open the web UI: servers, tools, approvals, trust, audit and chat in a browser, on this machine only')
    .option('-c, --config <file>', 'config file (default: mcp-host.json, then .mcp.json in the current folder)')
    .option('--port <n>', 'port to listen on (default: a free one)', parsePort)
    .option('--host <address>', 'loopback address to listen on (default 127.0.0.1)')
    .option('--open', 'open the address in the system browser')
    .option('-m, --model <provider:model>', 'model for the chat, e.g. anthropic:claude-sonnet-4-6 or scripted:PATH')
    .option('--base-url <url>', "the provider's base URL (mock servers, proxies, local servers)", parseBaseUrl)
    .option('--timeout <ms>', 'per tool call timeout in milliseconds (overrides every server)', parsePositiveInteger)
    .option('--state-dir <dir>', STATE_DIR_HELP)
    .addOption(rootOption())
    .action(async (options: UiOptions) => {
      const hostname = options.host ?? '127.0.0.1';
      if (!isLoopbackAddress(hostname)) {
        throw new CliError(
          `--host must be a loopback address (127.0.0.1, ::1 or localhost), not "${hostname}": the web UI serves this machine only`,
          EXIT_USAGE,
        );
      }
      // The chat's model, said wrong now rather than at the first message typed in the browser.
      if (options.model !== undefined) parseModelSpec(options.model);
      const interruption = handleInterruptions();
      const ui = await startWebUi({
        hostname,
        ...(options.port === undefined ? {} : { port: options.port }),
        host: {
          ...(options.config === undefined ? {} : { config: options.config }),
          ...(options.model === undefined ? {} : { model: options.model }),
          ...(options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl }),
          ...(options.timeout === undefined ? {} : { toolTimeoutMs: options.timeout }),
          ...(options.stateDir === undefined ? {} : { stateDir: options.stateDir }),
          ...(options.root === undefined ? {} : { roots: options.root }),
          signal: interruption.signal,
          onDiagnostic: (message) => writeError(`mcp-host: ${message}`),
        },
      });
      let opened: { remove(): Promise<void> } | undefined;
      try {
        announceAddress(ui.url, 'the web UI');
        if (options.open) {
          const couldNotOpen = (why: string) =>
            writeError(`mcp-host: could not open a browser (${why}); open the address above`);
          opened = await openUiInBrowser(ui.url, couldNotOpen).catch((error: unknown) => {
            couldNotOpen(error instanceof Error ? error.message : String(error));
            return undefined;
          });
        }
        await ui.ready.then(
          (host) => {
            // As every command says it: no server, or a config found here that is not approved yet.
            const note = noServersNote(host.config, host.approvals);
            if (note !== undefined) writeError(`mcp-host: ${note}`);
            interruption.serversOpened();
          },
          (error: unknown) => writeError(`mcp-host: ${error instanceof Error ? error.message : String(error)}`),
        );
        await new Promise<void>((resolve) => {
          if (interruption.signal.aborted) resolve();
          else interruption.signal.addEventListener('abort', () => resolve(), { once: true });
        });
      } finally {
        await opened?.remove();
        await ui.close();
        interruption.dispose();
        if (interruption.exitCode !== undefined) process.exitCode = interruption.exitCode;
      }
    });
}
