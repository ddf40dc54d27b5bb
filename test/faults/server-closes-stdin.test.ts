/**
 * A stdio server that closes its stdin and keeps running (no exit, stdout still open): the host's next request
 * finds the pipe gone (EPIPE) while waiting for it to drain. The call fails at once, saying the server closed its
 * input, where it waited for its timeout (120 s here, far past the test's own limit), and the session goes on with
 * the server's other answers still read.
 */
import { describe, expect, it } from 'vitest';
import { fixtureServer, runCli, writeConfig } from '../helpers/project.js';

/** Far longer than the test may take: a call that waited for it fails the test by the test's own limit. */
const LONG_TIMEOUT_MS = 120_000;
const TEST_TIMEOUT_MS = 60_000;

describe('a stdio server that closes its stdin', () => {
  it("fails the next call at once, naming the server's closed input", { timeout: TEST_TIMEOUT_MS }, async () => {
    const closesStdin = [fixtureServer('closes-stdin.mjs')];
    const config = await writeConfig({
      mcpServers: {
        cs: { command: process.execPath, args: closesStdin, trust: 'trusted', timeoutMs: LONG_TIMEOUT_MS },
      },
    });
    const started = performance.now();
    const result = await runCli(['connect', '--config', config], {
      input: ['call cs__close_stdin', 'call cs__ping', 'exit'].join('\n'),
      timeoutMs: TEST_TIMEOUT_MS - 10_000,
    });
    console.info(`connect ended ${Math.round(performance.now() - started)} ms after it started`);
    expect(result.stdout).toContain('closing');
    expect(result.stdout).toContain(
      "The tool call failed: could not write to the server's stdin: it closed its input (write EPIPE)",
    );
    expect(result.stdout).not.toContain('pong');
    expect(result.code).toBe(1);
  });
});
