/**
 * The official MCP conformance client scenarios that CI runs on every change: the ones without OAuth, the OAuth
 * metadata-discovery ones and enterprise-managed authorization (cross-app access), plus one the host fails on
 * purpose (to prove the expected-failures file is honoured).
 * They go through the same runner as `npm run conformance` (conformance/run.mjs), which drives the host's
 * connection layer from dist/ — build first, as `npm test` does.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/project.js';

const PASSING = [
  'initialize',
  'tools_call',
  'elicitation-sep1034-client-defaults',
  'sse-retry',
  'auth/metadata-default',
  'auth/metadata-var1',
  'auth/metadata-var2',
  'auth/metadata-var3',
  'auth/cross-app-access-complete-flow',
];
/** Refused by design: no authorization server metadata, so PKCE support cannot be verified. */
const EXPECTED_FAILURE = 'auth/2025-03-26-oauth-endpoint-fallback';

/**
 * The one scenario that measures time: how long the client waits to reconnect after a stream's `retry: 500`, warned
 * of past 700 ms and failed past 1,000. A machine loaded past its two cores can hold a 500 ms timer that long, so a
 * run where that timing check alone went wrong runs the scenario once more on its own, which must pass: a client that
 * does not wait fails both runs.
 */
const TIMED_SCENARIO = 'sse-retry';
// biome-ignore lint/suspicious/noControlCharactersInRegex: the runner colours each check's status.
const TIMING_CHECK_WRONG = /\[client-sse-retry-timing\s*\]\s*(?:\u001b\[\d+m)?(?:FAILURE|WARNING)/;

const passedLine = (name: string) => new RegExp(`✓ passed\\s+${escapeRegExp(name)} \\(`);

const running: ChildProcess[] = [];
afterEach(() => {
  // The runner, the Node 22 suite runner and the drivers share one process group.
  for (const child of running.splice(0)) {
    if (child.exitCode === null && child.pid !== undefined) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  }
});

function runConformance(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(repoRoot, 'conformance', 'run.mjs'), ...args], {
      cwd: repoRoot,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    running.push(child);
    let output = '';
    child.stdout?.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr?.on('data', (chunk) => {
      output += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe('MCP conformance (client scenarios)', () => {
  it('has what the runner needs (the Node 22 tools are installed on first use)', async () => {
    const { ensureNode22 } = await import('../../tools/node22.mjs');
    expect(ensureNode22(() => undefined).version).toMatch(/^v22\./);
    expect(
      existsSync(join(repoRoot, 'dist', 'src', 'connections', 'oauth', 'remote-authorization.js')),
      'run `npm run build`',
    ).toBe(true);
  }, 300_000);

  it('passes the scenarios without OAuth, the OAuth metadata ones and cross-app access, and fails only where expected', async () => {
    const scenarios = [...PASSING, EXPECTED_FAILURE].flatMap((name) => ['--scenario', name]);
    const { code, output } = await runConformance([...scenarios, '--jobs', '2']);
    const failed = [...output.matchAll(/✗ FAILED\s+(\S+) \(/g)].map((match) => match[1]);
    if (failed.length === 1 && failed[0] === TIMED_SCENARIO && TIMING_CHECK_WRONG.test(output)) {
      const again = await runConformance(['--scenario', TIMED_SCENARIO, '--jobs', '1']);
      expect(again.output, `${output}\n--- run again on its own ---\n${again.output}`).toMatch(
        passedLine(TIMED_SCENARIO),
      );
      for (const name of PASSING.filter((name) => name !== TIMED_SCENARIO)) {
        expect(output, output).toMatch(passedLine(name));
      }
      expect(output, output).toContain(`${PASSING.length - 1} passed, 1 failed as expected, 1 unexpected`);
    } else {
      for (const name of PASSING) expect(output, output).toMatch(passedLine(name));
      expect(output, output).toContain(`${PASSING.length} passed, 1 failed as expected, 0 unexpected`);
      expect(code, output).toBe(0);
    }
    expect(output, output).toMatch(new RegExp(`~ expected failure\\s+${escapeRegExp(EXPECTED_FAILURE)} \\(`));
  }, 240_000);
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
