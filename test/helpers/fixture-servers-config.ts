/**
 * A config file serving fixture servers (test/fixtures/servers/FILE) trusted and with every one of their tools
 * allowed, so nothing is asked: what the gateway's content tests serve, each server with a result budget per tool.
 */
import { fixtureServer, writeConfig } from './project.js';

export interface FixtureServerSpec {
  /** The file in test/fixtures/servers. */
  file: string;
  /** A result budget (`maxResultTokens`) for some of its tools, by the server's own tool name. */
  budgets?: Record<string, number>;
}

/** Writes the config in a fresh folder; `allowAlso` allows more tools (the host's own, say). Returns its path. */
export function writeFixtureServersConfig(
  servers: Record<string, FixtureServerSpec>,
  allowAlso: string[] = [],
): Promise<string> {
  const entries = Object.entries(servers).map(([name, { file, budgets }]) => [
    name,
    {
      command: process.execPath,
      args: [fixtureServer(file)],
      trust: 'trusted',
      ...(budgets === undefined
        ? {}
        : {
            tools: Object.fromEntries(
              Object.entries(budgets).map(([tool, maxResultTokens]) => [tool, { maxResultTokens }]),
            ),
          }),
    },
  ]);
  return writeConfig({
    mcpServers: Object.fromEntries(entries),
    permissions: { allow: [...Object.keys(servers).map((name) => `${name}__*`), ...allowAlso] },
  });
}
