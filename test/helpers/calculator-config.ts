import { join } from 'node:path';
import { type CliResult, exampleServer, runCli, temporaryDirectory, writeConfig } from './project.js';

/** The example calculator server's config entry, not marked trusted. */
const calculator = { command: process.execPath, args: [exampleServer('calculator')] };

/** The same entry marked trusted: its tools are offered with no question about the server first. */
export const trustedCalculator = { ...calculator, trust: 'trusted' };

/** A config file with the example calculator server, not marked trusted, and the keys of `extra`: its path. */
export function calculatorConfig(extra: Record<string, unknown> = {}): Promise<string> {
  return writeConfig({ mcpServers: { calculator }, ...extra });
}

/** A config file with the example calculator server marked trusted, and the keys of `extra`: its path. */
export function trustedCalculatorConfig(extra: Record<string, unknown> = {}): Promise<string> {
  return writeConfig({ mcpServers: { calculator: trustedCalculator }, ...extra });
}

/**
 * The CLI on a config of the example calculator server (not trusted) with a state folder of its own: `run` takes the
 * command's arguments. Generous timeouts: the CLI starts real processes on two shared cores (no timing assertions).
 */
export async function calculatorCli(
  prefix: string,
): Promise<{ config: string; run(args: string[]): Promise<CliResult> }> {
  const config = await calculatorConfig();
  const stateDir = join(await temporaryDirectory(prefix), 'state');
  return { config, run: (args) => runCli(args, { timeoutMs: 60_000, env: { MCP_HOST_STATE_DIR: stateDir } }) };
}
