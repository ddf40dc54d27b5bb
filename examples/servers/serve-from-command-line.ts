/**
 * The command line every example server shares: stdio by default, or Streamable HTTP with
 * `--http PORT` (0 picks a free port). Over stdio, stdout is the protocol channel, so nothing else is
 * ever written there; diagnostics go to stderr. Over HTTP, exactly one line `listening <url>` goes to
 * stderr once the port is bound, so whoever started the server can read where it is.
 */
import { parseArgs } from 'node:util';
import type { McpServer } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { listenOnStreamableHttp, type StreamableHttpListener } from './streamable-http-listener.js';

/** What a server process needs while it serves. */
export interface ServingResources {
  /** Makes a fresh server; called once over stdio and once per session over HTTP. */
  createServer: () => McpServer;
  /** Releases what the process holds (a database, say) when it stops serving. Called at most once. */
  release?: () => void;
}

export interface ServeOptions {
  /** The server's name, used in usage and diagnostics. */
  name: string;
  /**
   * Acquires what the server needs, once the command line is known to be valid (so `--help` opens
   * nothing). A thrown error stops the process with its message.
   */
  open: () => ServingResources;
}

/** Exit code for a command line that cannot be understood, as most Unix tools use. */
const USAGE_EXIT_CODE = 2;

function usage(name: string): string {
  return [
    `usage: node ${name}.js [--http PORT]`,
    '  (no option)  serve MCP over stdio',
    '  --http PORT  serve MCP over Streamable HTTP on 127.0.0.1:PORT/mcp (0 picks a free port)',
  ].join('\n');
}

function parsePort(text: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65535) {
    throw new Error(`--http expects a port number from 0 to 65535, got "${text}"`);
  }
  return port;
}

/** Reads the command line and serves until the client goes away or a signal arrives. */
export async function serveFromCommandLine(options: ServeOptions): Promise<void> {
  let httpPort: number | undefined;
  try {
    const { values } = parseArgs({
      options: { http: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: false,
    });
    if (values.help) {
      // Not serving, so stdout is free for the usage text.
      console.log(usage(options.name));
      return;
    }
    if (values.http !== undefined) httpPort = parsePort(values.http);
  } catch (error) {
    console.error(`${options.name}: ${error instanceof Error ? error.message : String(error)}\n${usage(options.name)}`);
    process.exitCode = USAGE_EXIT_CODE;
    return;
  }

  let resources: ServingResources;
  try {
    resources = options.open();
  } catch (error) {
    console.error(`${options.name}: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
    return;
  }
  let released = false;
  const release = (): void => {
    if (released) return;
    released = true;
    resources.release?.();
  };

  if (httpPort === undefined) {
    const transport = new StdioServerTransport();
    // The client closing stdin ends the session; with nothing else open the process then exits.
    transport.onclose = release;
    await resources.createServer().connect(transport);
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.once(signal, () => {
        release();
        process.exit(0);
      });
    }
    return;
  }

  let listener: StreamableHttpListener;
  try {
    listener = await listenOnStreamableHttp(resources.createServer, httpPort);
  } catch (error) {
    console.error(
      `${options.name}: cannot listen on 127.0.0.1:${httpPort}: ${error instanceof Error ? error.message : String(error)}; ` +
        'choose another port, or 0 for any free one',
    );
    process.exitCode = 1;
    release();
    return;
  }
  console.error(`listening ${listener.url}`);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      listener.close().finally(() => {
        release();
        process.exit(0);
      });
    });
  }
}
