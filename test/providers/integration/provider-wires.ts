/**
 * What the provider integration tests share: one entry per provider wire (the model spec, where its
 * SDK is pointed on the mock LLM server, its key, and where the tools and the system prompt sit in
 * its request body), and a host wired to the shuffled-tools fixture server over real stdio, or over
 * Streamable HTTP to one copy of it that a whole test file shares.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { HostConfig, RemoteServerConfig } from '../../../src/config/types.js';
import { createHost, type Host, type HostOptions } from '../../../src/host/create-host.js';
import { bundledFixture } from '../../helpers/bundled-fixture.js';
import { hostConfig, httpServer, stdioServer } from '../../helpers/configs.js';
import { repoRoot, temporaryDirectory } from '../../helpers/project.js';

export const shuffledToolsServer = bundledFixture(
  join(repoRoot, 'test', 'fixtures', 'providers', 'shuffled-tools.mjs'),
);

/** The fixture's tools as the host names them (server `shop`). */
export const SERVER_NAME = 'shop';

type Body = Record<string, unknown>;

export interface ProviderWire {
  /** `provider:model` as `--model` takes it. */
  model: string;
  /** The mock route the SDK posts to (path without query). */
  route: RegExp;
  baseUrl(mockUrl: string): string;
  env: Record<string, string>;
  /** The part of the body that describes the tools, as sent. */
  toolsOf(body: Body): unknown;
  /** The part of the body that holds the system prompt, as sent. */
  systemOf(body: Body): unknown;
}

export const PROVIDER_WIRES = {
  anthropic: {
    model: 'anthropic:claude-test',
    route: /^\/v1\/messages$/,
    baseUrl: (url) => url,
    env: { ANTHROPIC_API_KEY: 'test-key' },
    toolsOf: (body) => body.tools,
    systemOf: (body) => body.system,
  },
  'openai-chat': {
    model: 'openai:gpt-test',
    route: /^\/v1\/chat\/completions$/,
    baseUrl: (url) => `${url}/v1`,
    env: { OPENAI_API_KEY: 'test-key' },
    toolsOf: (body) => body.tools,
    systemOf: (body) => (body.messages as Body[] | undefined)?.[0],
  },
  'openai-responses': {
    model: 'openai-responses:gpt-test',
    route: /^\/v1\/responses$/,
    baseUrl: (url) => `${url}/v1`,
    env: { OPENAI_API_KEY: 'test-key' },
    toolsOf: (body) => body.tools,
    systemOf: (body) => body.instructions,
  },
  gemini: {
    model: 'gemini:gemini-test',
    route: /^\/v1beta\/models\/gemini-test:(stream)?[gG]enerateContent$/,
    baseUrl: (url) => url,
    env: { GEMINI_API_KEY: 'test-key' },
    toolsOf: (body) => body.tools,
    systemOf: (body) => body.systemInstruction,
  },
  'openai-compatible': {
    model: 'openai-compatible:local-model',
    route: /^\/v1\/chat\/completions$/,
    baseUrl: (url) => `${url}/v1`,
    env: {},
    toolsOf: (body) => body.tools,
    systemOf: (body) => (body.messages as Body[] | undefined)?.[0],
  },
} satisfies Record<string, ProviderWire>;

export type ProviderWireName = keyof typeof PROVIDER_WIRES;

export const SYSTEM_PROMPT = 'You help with the shop. Use its tools.';

/** SHA-256 of the value's JSON text exactly as serialised (key order included). */
export function hashJson(value: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(value) ?? 'undefined')
    .digest('hex');
}

export interface HttpFixtureServer {
  /** Its Streamable HTTP endpoint, `http://127.0.0.1:PORT/mcp`. */
  url: string;
  /** Ends the server process (by its pid) and waits for it to exit. */
  close(): Promise<void>;
}

/**
 * One shuffled-tools server process serving Streamable HTTP (stateless: every connection gets the same tools, in a
 * new order per `tools/list`), so a test file starts one process instead of one per host. Stopped on failure too.
 */
export async function startShuffledToolsOverHttp(env: Record<string, string> = {}): Promise<HttpFixtureServer> {
  const child = spawn(process.execPath, [shuffledToolsServer, '--http'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const match = /listening (http:\S+)/.exec(stdout);
        if (match) resolve(match[1] as string);
      });
      child.once('exit', (code) => reject(new Error(`shuffled-tools --http exited with ${code}:\n${stderr}`)));
    });
    return { url, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** A server entry named `name` for the shuffled-tools server at `url`, trusted. */
export function remoteShuffledTools(name: string, url: string): RemoteServerConfig {
  return httpServer(name, url, { trust: 'trusted' });
}

export interface FixtureHost {
  host: Host;
  /** Closes the host (stopping the server) and removes its state folder. */
  close(): Promise<void>;
}

/**
 * A host with the shuffled-tools server over real stdio (or, given `serverUrl`, over Streamable HTTP
 * at that address), trusted and allowed (a headless host denies calls that need asking), a fresh
 * state folder (pinning starts clean), audit in memory.
 */
export async function startFixtureHost(
  wire: ProviderWire,
  mockUrl: string,
  options: { serverUrl?: string; stream?: boolean } & Partial<HostOptions> = {},
): Promise<FixtureHost> {
  const { serverUrl, ...hostOptions } = options;
  const stateDir = await temporaryDirectory('mcp-host-provider-state-');
  const config: HostConfig = hostConfig(
    [
      serverUrl
        ? remoteShuffledTools(SERVER_NAME, serverUrl)
        : stdioServer(SERVER_NAME, [shuffledToolsServer], { trust: 'trusted' }),
    ],
    { permissions: { allow: [`${SERVER_NAME}__*`], ask: [], deny: [] } },
  );
  const host = await createHost({
    config,
    model: wire.model,
    baseUrl: wire.baseUrl(mockUrl),
    env: { ...wire.env },
    stateDir,
    auditSink: false,
    system: SYSTEM_PROMPT,
    ...hostOptions,
  });
  return {
    host,
    close: async () => {
      try {
        await host.close();
      } finally {
        await rm(stateDir, { recursive: true, force: true });
      }
    },
  };
}
