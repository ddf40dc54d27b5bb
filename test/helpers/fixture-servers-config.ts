/**
 * A config file serving fixture servers (test/fixtures/servers/FILE) or example servers (examples/servers/NAME)
 * trusted and with every one of their tools allowed, so nothing is asked: what the gateway's tests serve, some
 * servers with a result budget or environment.
 */
import { exampleServer, fixtureServer, writeConfig } from './project.js';

/** Which server to start: a file in test/fixtures/servers, or the name of a bundled example server. */
type ServerSource = { file: string; example?: never } | { example: string; file?: never };

export type FixtureServerSpec = ServerSource & {
  /** A result budget (`maxResultTokens`) for some of its tools, by the server's own tool name. */
  budgets?: Record<string, number>;
  /** A result budget for every one of its tools. */
  maxResultTokens?: number;
  /** Environment variables the server is started with (where it logs its events, say). */
  env?: Record<string, string>;
  /** How long one of its tool calls may take (`timeoutMs`), where the default is too short for the test's work. */
  timeoutMs?: number;
};

export interface FixtureServersConfigOptions {
  /** More tools to allow (the host's own, say). */
  allowAlso?: string[];
  /** Other top-level config fields (`gateway`, `profiles`...). */
  fields?: Record<string, unknown>;
}

/** Writes the config in a fresh folder. Returns its path. */
export function writeFixtureServersConfig(
  servers: Record<string, FixtureServerSpec>,
  { allowAlso = [], fields = {} }: FixtureServersConfigOptions = {},
): Promise<string> {
  const entries = Object.entries(servers).map(([name, { file, example, budgets, maxResultTokens, env, timeoutMs }]) => [
    name,
    {
      command: process.execPath,
      args: [example === undefined ? fixtureServer(file) : exampleServer(example)],
      trust: 'trusted',
      ...(env === undefined ? {} : { env }),
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
      ...(maxResultTokens === undefined ? {} : { maxResultTokens }),
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
    ...fields,
  });
}
