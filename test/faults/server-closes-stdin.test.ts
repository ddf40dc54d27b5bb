/**
 * A stdio server that closes its stdin and keeps running (no exit, stdout still open): the host's next request
 * finds the pipe gone (EPIPE) while waiting for it to drain. The call fails at once, saying the server closed its
 * input, and the session goes on with the server's other answers still read.
 */
import { describe, expect, it } from 'vitest';
import { fixtureServer, runCli, writeConfig } from '../helpers/project.js';

describe('a stdio server that closes its stdin', () => {
  it("fails the next call at once, naming the server's closed input", async () => {
    const config = await writeConfig({
      mcpServers: { cs: { command: process.execPath, args: [fixtureServer('closes-stdin.mjs')], trust: 'trusted' } },
    });
    const started = performance.now();
    const result = await runCli(['connect', '--config', config], {
      input: ['call cs__close_stdin', 'call cs__ping', 'exit'].join('\n'),
      timeoutMs: 30_000,
    });
    expect(result.stdout).toContain('closing');
    expect(result.stdout).toContain(
      "The tool call failed: could not write to the server's stdin: it closed its input (write EPIPE)",
    );
    expect(result.stdout).not.toContain('pong');
    expect(result.code).toBe(1);
    // Well inside the call's timeout of 60 s.
    expect(performance.now() - started).toBeLessThan(20_000);
  }, 60_000);
});
