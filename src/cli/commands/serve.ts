/**
 * `mcp-host serve`: the gateway. Any MCP client connects to one server that fronts every configured server with
 * the host's consent, pinning, budgets, timeouts and audit. Over stdio (the client starts it as a command) or
 * Streamable HTTP on loopback with bearer tokens. Stdout is the protocol channel under --stdio: all our own output
 * goes to stderr. Over HTTP, the address is announced as every listening command announces it.
 */

import { randomBytes } from 'node:crypto';
import { Command } from 'commander';
import { MIN_GATEWAY_TOKEN_CHARACTERS, sha256Hex } from '../../config/gateway-settings.js';
import { loadConfig } from '../../config/load-config.js';
import { chosenStateDir } from '../../config/state-dir.js';
import { createGatewayHosts } from '../../gateway/gateway-hosts.js';
import { startGatewayHttp } from '../../gateway/gateway-http.js';
import { startGatewayStdio } from '../../gateway/gateway-stdio.js';
import { announceAddress } from '../announce-address.js';
import { parsePort, parsePositiveInteger, rootOption, STATE_DIR_HELP } from '../common-options.js';
import { CliError, EXIT_USAGE } from '../exit-codes.js';
import { handleInterruptions } from '../interrupt.js';
import { noServersNote } from '../no-servers-note.js';
import { writeError } from '../output.js';
import { packageVersion } from '../package-version.js';

/** A token given in the environment, for clients configured with it; else one is made for this run. */
const GATEWAY_TOKEN_VARIABLE = 'MCP_HOST_GATEWAY_TOKEN';

interface ServeOptions {
  config?: string;
  stdio?: boolean;
  http?: number;
  host?: string;
  profile?: string;
  timeout?: number;
  stateDir?: string;
  root?: string[];
}

const LOOPBACK_ADDRESSES = new Set(['127.0.0.1', '::1', 'localhost']);

export function createServeCommand(): Command {
  return new Command('serve')
    .description('serve every configured server as one guarded, audited MCP server (a gateway)')
    .option('-c, --config <file>', 'config file (default: mcp-host.json, then .mcp.json in the current folder)')
    .option('--stdio', 'serve one client over standard input and output (the default)')
    .option('--http <port>', 'serve Streamable HTTP on this port (0 picks a free one)', parsePort)
    .option('--host <address>', 'address to listen on with --http (default 127.0.0.1)')
    .option('--profile <name>', 'serve only this profile of the config (over HTTP: also at /mcp/NAME)')
    .option('--timeout <ms>', 'per tool call timeout in milliseconds (overrides every server)', parsePositiveInteger)
    .option('--state-dir <dir>', STATE_DIR_HELP)
    .addOption(rootOption())
    .action(async (options: ServeOptions) => {
      if (options.stdio && options.http !== undefined)
        throw new CliError('choose one of --stdio and --http', EXIT_USAGE);
      // Otherwise the address would be ignored and the gateway would serve stdio instead of listening on it.
      if (options.host !== undefined && options.http === undefined)
        throw new CliError('--host is the address to listen on with --http PORT; add --http', EXIT_USAGE);
      const config = await loadConfig({
        configPath: options.config,
        cwd: process.cwd(),
        env: process.env,
        stateDir: options.stateDir,
      });
      const noServers = noServersNote(config, { stateDir: chosenStateDir(options.stateDir) });
      if (options.profile !== undefined && config.profiles?.[options.profile] === undefined) {
        // A config awaiting approval is read without its profiles: that, not the name, is what to fix.
        if (config.awaitingApproval !== undefined && noServers !== undefined) throw new CliError(noServers, EXIT_USAGE);
        const known = Object.keys(config.profiles ?? {});
        throw new CliError(
          `no profile is named "${options.profile}" (profiles: ${known.length > 0 ? known.join(', ') : 'none configured'})`,
          EXIT_USAGE,
        );
      }
      // The gateway still serves (the host's own tools, if any), but a client would only see no tools: say why here.
      if (noServers !== undefined) writeError(`mcp-host: ${noServers}`);
      const hosts = createGatewayHosts(config, {
        cwd: process.cwd(),
        toolTimeoutMs: options.timeout,
        stateDir: options.stateDir,
        ...(options.root === undefined ? {} : { roots: options.root }),
        onDiagnostic: (message) => writeError(`mcp-host: ${message}`),
      });
      const interruption = handleInterruptions();
      try {
        if (options.http === undefined) {
          const gateway = await startGatewayStdio({
            hosts,
            profile: options.profile,
            version: packageVersion(),
            onDiagnostic: (message) => writeError(`mcp-host: ${message}`),
          });
          interruption.serversOpened();
          await Promise.race([gateway.closed, abortedPromise(interruption.signal)]);
          await gateway.close();
          return;
        }
        const hostname = options.host ?? '127.0.0.1';
        const tokens = [...(config.gateway?.tokens ?? [])];
        let runToken: string | undefined;
        const oauth = config.gateway?.oauth !== undefined;
        // Before a token is made for the run: it would be printed and could not be used.
        if (!LOOPBACK_ADDRESSES.has(hostname) && tokens.length === 0 && !oauth) {
          throw new CliError(
            `listening on ${hostname} (not loopback) needs gateway.tokens or gateway.oauth in the config: a one-run token is for this machine only`,
            EXIT_USAGE,
          );
        }
        // With OAuth, access tokens are the credentials: no token is made for the run.
        if (tokens.length === 0 && !oauth) {
          const given = process.env[GATEWAY_TOKEN_VARIABLE];
          // As short a token as the config refuses would be guessed: the variable is held to the same length.
          if (given !== undefined && given !== '' && given.length < MIN_GATEWAY_TOKEN_CHARACTERS) {
            throw new CliError(
              `${GATEWAY_TOKEN_VARIABLE} is ${given.length} characters long; a gateway token needs at least ${MIN_GATEWAY_TOKEN_CHARACTERS}`,
              EXIT_USAGE,
            );
          }
          const token = given !== undefined && given !== '' ? given : randomBytes(24).toString('base64url');
          tokens.push({ name: 'default', sha256: sha256Hex(token) });
          if (given === undefined || given === '') runToken = token;
        }
        // Start the default profile's servers now, so the first client does not wait and /ready means ready.
        if (options.profile === undefined) await hosts.get(undefined);
        else await hosts.get(options.profile);
        const gateway = await startGatewayHttp({
          hosts,
          tokens,
          port: options.http,
          hostname,
          ...(options.profile === undefined ? {} : { profile: options.profile }),
          version: packageVersion(),
          onDiagnostic: (message) => writeError(`mcp-host: ${message}`),
        });
        interruption.serversOpened();
        // Said once the gateway listens: a port it could not take would leave a token for nothing on the screen.
        if (runToken !== undefined)
          writeError(`mcp-host: gateway token for this run (send "Authorization: Bearer TOKEN"): ${runToken}`);
        announceAddress(`${gateway.url}${options.profile ? `/${options.profile}` : ''}`, 'the gateway');
        await abortedPromise(interruption.signal);
        await gateway.close();
      } finally {
        await hosts.close();
        interruption.dispose();
        if (interruption.exitCode !== undefined) process.exitCode = interruption.exitCode;
      }
    });
}

function abortedPromise(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}
