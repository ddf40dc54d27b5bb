/**
 * `run --json` writes JSON on stdout whatever the outcome: a run whose provider fails after a tool call gives the
 * failure and the call made, besides the one line on stderr and exit 1.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT_RUN_FAILED } from '../../src/cli/exit-codes.js';
import { exampleServer, runCli, temporaryDirectory } from '../helpers/project.js';

describe('run --json when the run fails', () => {
  it('prints the failure and the calls made before it as JSON, and exits 1', async () => {
    const directory = await temporaryDirectory('mcp-host-run-json-');
    // The second turn expects a result the calculator does not give: the scripted provider fails the request.
    await writeFile(
      join(directory, 'script.json'),
      JSON.stringify({
        scenarios: [
          {
            match: 'add',
            turns: [
              { toolCalls: [{ name: 'calculator__add_numbers', arguments: { a: 5, b: 7 } }] },
              { expect: { lastToolResultIncludes: 'thirteen' }, text: 'never' },
            ],
          },
        ],
      }),
    );
    await writeFile(
      join(directory, 'mcp-host.json'),
      JSON.stringify({
        model: 'scripted:script.json',
        mcpServers: {
          calculator: { command: process.execPath, args: [exampleServer('calculator')], trust: 'trusted' },
        },
      }),
    );
    const result = await runCli(['run', '--json', '-c', 'mcp-host.json', 'add 5 and 7'], {
      cwd: directory,
      timeoutMs: 60_000,
    });
    expect(result.code).toBe(EXIT_RUN_FAILED);
    const printed = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(printed).toMatchObject({
      model: `scripted:${join(directory, 'script.json')}`,
      stopReason: 'error',
      message: expect.stringMatching(/^the run failed: Scripted provider error/),
      toolCalls: [expect.objectContaining({ name: 'calculator__add_numbers', outcome: 'ok' })],
    });
    expect(result.stderr).toContain(`mcp-host: ${printed.message as string}\n`);
  }, 90_000);
});
