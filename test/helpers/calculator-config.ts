import { exampleServer, writeConfig } from './project.js';

/** A config file with the example calculator server, not marked trusted, and the keys of `extra`: its path. */
export function calculatorConfig(extra: Record<string, unknown> = {}): Promise<string> {
  return writeConfig({
    mcpServers: { calculator: { command: process.execPath, args: [exampleServer('calculator')] } },
    ...extra,
  });
}
