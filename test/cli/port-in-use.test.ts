/**
 * The commands that listen on a port (`serve --http`, `ui --port`, `mock-llm --port`) given one that is taken say so
 * in one line with what to do, not with Node's EADDRINUSE message, and exit 1.
 */
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_RUN_FAILED } from '../../src/cli/exit-codes.js';
import { calculatorConfig } from '../helpers/calculator-config.js';
import { repoRoot, runCli } from '../helpers/project.js';

let taken: Server;
let port: number;

beforeAll(async () => {
  taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  port = (taken.address() as { port: number }).port;
});

afterAll(async () => {
  await new Promise((resolve) => taken.close(resolve));
});

describe('a port that is already in use', () => {
  it('is named with what to do, by every command that listens', async () => {
    const config = await calculatorConfig();
    const script = join(repoRoot, 'examples', 'scripts', 'five-plus-seven.json');
    const results = await Promise.all([
      runCli(['serve', '--http', String(port), '--config', config], { timeoutMs: 60_000 }),
      runCli(['ui', '--port', String(port), '--config', config], { timeoutMs: 60_000 }),
      runCli(['mock-llm', '--script', script, '--port', String(port)], { timeoutMs: 60_000 }),
    ]);
    for (const result of results) {
      expect(result.code, result.stderr).toBe(EXIT_RUN_FAILED);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(
        `mcp-host: cannot listen on 127.0.0.1:${port}: the port is already in use; choose another port, or 0 for a free one\n`,
      );
      expect(result.stderr).not.toContain('EADDRINUSE');
    }
  }, 90_000);
});
