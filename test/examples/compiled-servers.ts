/**
 * Starts the bundled example servers the way users and host configs do (`node dist/bundle/examples/servers/NAME.js`)
 * and connects the official MCP client to them, so the example tests exercise the real processes over
 * real stdio and real HTTP.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { exampleServer } from '../helpers/project.js';

export type ExampleServerName = 'calculator' | 'inventory';

const repositoryRoot = fileURLToPath(new URL('../../', import.meta.url));
const sourceFolder = join(repositoryRoot, 'examples', 'servers');
const compiledFolder = join(repositoryRoot, 'dist', 'examples', 'servers');

/** How long a server may take to print its readiness line before the test gives up. */
const READINESS_TIMEOUT_MILLISECONDS = 10_000;
/** How long a stopped server may take to exit before it is killed outright. */
const EXIT_GRACE_MILLISECONDS = 5_000;

/**
 * The bundled entry point of an example server. Fails with what to do when the build is missing or
 * older than the sources, since a stale build would make these tests check old code.
 */
export function compiledServerPath(name: ExampleServerName): string {
  const path = join(compiledFolder, `${name}.js`);
  if (!existsSync(path)) {
    throw new Error(`${path} is missing: run \`npm run build\` before the example tests`);
  }
  for (const file of readdirSync(sourceFolder).filter((entry) => entry.endsWith('.ts'))) {
    const compiled = join(compiledFolder, file.replace(/\.ts$/, '.js'));
    if (!existsSync(compiled) || statSync(compiled).mtimeMs < statSync(join(sourceFolder, file)).mtimeMs) {
      throw new Error(`${compiled} is missing or older than examples/servers/${file}: run \`npm run build\``);
    }
  }
  return exampleServer(name);
}

export function newClient(): Client {
  return new Client({ name: 'example-server-tests', version: '0.0.0' });
}

/** Spawns the compiled server over stdio and connects a client to it. Close the client to stop it. */
export async function connectOverStdio(name: ExampleServerName, env: Record<string, string> = {}): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [compiledServerPath(name)],
    env,
    stderr: 'inherit',
  });
  const client = newClient();
  await client.connect(transport);
  return client;
}

export interface HttpServerProcess {
  child: ChildProcess;
  url: URL;
  /** Everything the process wrote to stderr so far. */
  stderr(): string;
  /** Sends SIGTERM and waits for the exit (SIGKILL after a grace period); resolves with the exit code. */
  stop(): Promise<number | null>;
}

/** Starts the compiled server with `--http 0` and waits for its `listening <url>` line on stderr. */
export async function startOverHttp(
  name: ExampleServerName,
  env: Record<string, string> = {},
): Promise<HttpServerProcess> {
  const child = spawn(process.execPath, [compiledServerPath(name), '--http', '0'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let stdout = '';
  child.stderr?.setEncoding('utf8').on('data', (text: string) => {
    stderr += text;
  });
  child.stdout?.setEncoding('utf8').on('data', (text: string) => {
    stdout += text;
  });
  const exited = new Promise<number | null>((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
  const stop = async (): Promise<number | null> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const killTimer = setTimeout(() => child.kill('SIGKILL'), EXIT_GRACE_MILLISECONDS);
    try {
      return await exited;
    } finally {
      clearTimeout(killTimer);
    }
  };

  try {
    const url = await new Promise<URL>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`${name} --http 0 printed no readiness line in time; stderr so far: ${stderr}`)),
        READINESS_TIMEOUT_MILLISECONDS,
      );
      const check = (): void => {
        const line = /^listening (\S+)\n/.exec(stderr);
        if (line?.[1] !== undefined) {
          clearTimeout(timer);
          resolve(new URL(line[1]));
        }
      };
      child.stderr?.on('data', check);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`${name} --http 0 exited with ${code} before listening; stderr: ${stderr} stdout: ${stdout}`));
      });
    });
    return { child, url, stderr: () => stderr, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Connects a client over Streamable HTTP; returns the transport too, for its session id. */
export async function connectOverHttp(url: URL): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(url);
  const client = newClient();
  await client.connect(transport);
  return { client, transport };
}

/** The text of a tool result's text blocks, joined. */
export function resultText(result: { content?: unknown }): string {
  const blocks = Array.isArray(result.content) ? (result.content as { type: string; text?: string }[]) : [];
  return blocks
    .filter((block) => block.type === 'text')
    .map((block) => block.text ?? '')
    .join('\n');
}
