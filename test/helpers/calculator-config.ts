import { exampleServer, writeConfig } from './project.js';

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
