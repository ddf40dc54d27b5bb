/** Starts `mcp-host ui` as a user would (the built CLI, a child process) and reads the URL it prints. */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChatStateView } from '../../src/web/api-types.js';
import { trackUntilExit } from './left-running.js';
import { bundledCliPath } from './project.js';
import { waitUntil } from './wait-until.js';

export interface RunningUi {
  url: string;
  /** `http://127.0.0.1:PORT`. */
  base: string;
  token: string;
  stateDir: string;
  /** The UI's process. */
  pid: number;
  stderr: () => string;
  stop: () => Promise<void>;
}

export async function startUi(
  args: string[],
  options: { cwd?: string; stateDir?: string; waitForHost?: boolean; env?: Record<string, string> } = {},
): Promise<RunningUi> {
  const stateDir = options.stateDir ?? mkdtempSync(join(tmpdir(), 'mcp-host-state-'));
  const child: ChildProcess = spawn(process.execPath, [bundledCliPath(), 'ui', ...args], {
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', MCP_HOST_STATE_DIR: stateDir, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  trackUntilExit(child);
  let stdout = '';
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  };
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      // The address alone on the first line of stdout, as every listening command prints it.
      const match = /^(http:\/\/\S+)\n/.exec(stdout);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`mcp-host ui exited (${code}) before printing its URL\n${stderr}`)));
  }).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  const parsed = new URL(url);
  if (options.waitForHost !== false) {
    await waitForHost(parsed.origin, parsed.searchParams.get('token') ?? '').catch(async (error: unknown) => {
      await stop();
      throw error;
    });
  }
  return {
    url,
    base: parsed.origin,
    token: parsed.searchParams.get('token') ?? '',
    stateDir,
    pid: child.pid!,
    stderr: () => stderr,
    stop,
  };
}

/** Follows the UI's own event stream until it says the host is ready (or could not start). */
async function waitForHost(base: string, token: string): Promise<void> {
  const response = await fetch(`${base}/api/events`, { headers: { authorization: `Bearer ${token}` } });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error('the event stream ended before the host was ready');
      text += value;
      if (text.includes('"phase":"ready"')) return;
      const failed = /"phase":"failed","error":"([^"]*)"/.exec(text);
      if (failed) throw new Error(`the host could not start: ${failed[1]}`);
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

/** A request to the UI's API as the page makes it (its token and origin): GET without a body, POST with one. */
export async function callUiApi<Answer = Record<string, unknown>>(
  ui: RunningUi,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: Answer }> {
  const response = await fetch(`${ui.base}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${ui.token}`, origin: ui.base, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Answer };
}

/**
 * Waits until the UI's chat says no turn runs. Only the chat's state says so: an error answer, which names no running
 * turn either, is not taken for it.
 */
export async function waitForNoTurnRunning(
  ui: RunningUi,
  what = 'the turn to end',
  timeoutMs?: number,
  intervalMs?: number,
): Promise<void> {
  await waitUntil(
    async () => {
      const chat = await callUiApi<ChatStateView>(ui, '/api/chat');
      return chat.status === 200 && chat.body.running === undefined;
    },
    what,
    timeoutMs,
    intervalMs,
  );
}

/** Reads the UI's event stream until `pattern` shows. */
export async function waitForUiEvent(ui: RunningUi, pattern: RegExp): Promise<void> {
  const response = await fetch(`${ui.base}/api/events`, { headers: { authorization: `Bearer ${ui.token}` } });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the event stream ended before ${pattern}`);
      text += value;
      if (pattern.test(text)) return;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}
