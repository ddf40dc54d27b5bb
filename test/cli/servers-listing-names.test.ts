/**
 * The listings show names a server chose: its own name and version (its `serverInfo`), its resources' URIs and MIME
 * types, its prompts' and their arguments' names. A line break in one would start a line of the listing that passed
 * for another entry's (`files: connected (stdio, …)`). Each is shown on its entry's one line, the break as its escape.
 * A real server process.
 */
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../helpers/in-process-cli.js';
import { lineBreakNamesConfig } from '../helpers/line-break-names.js';

/**
 * What the command `args` prints, on the config of the server whose names hold line breaks, with `input` typed: it
 * exits 0, and no line starts as the lines those names would forge do (`files…`).
 */
async function listed(args: string[], input?: string): Promise<string> {
  const config = await lineBreakNamesConfig();
  const result = await runCliInProcess([...args, '--config', config], {
    timeoutMs: 60_000,
    ...(input === undefined ? {} : { input }),
  });
  expect(result.code, result.stderr).toBe(0);
  expect(result.stdout.split('\n').filter((line) => line.startsWith('files'))).toEqual([]);
  return result.stdout;
}

describe('mcp-host servers, given a server whose own name holds a line break', () => {
  it('shows that name on its one line', async () => {
    const stdout = await listed(['servers']);
    expect(stdout).toContain('(stdio, protocol ');
    expect(stdout).toContain(', line-break\\x0afiles: connected (stdio 1.0.0, 1 tool(s))\n');
  }, 60_000);
});

describe('mcp-host resources list, given a resource whose URI and MIME type hold line breaks', () => {
  it('shows each on its resource’s one line', async () => {
    expect(await listed(['resources', 'list'])).toContain(
      'odd  notes://a\\x0afiles  notes://secrets  "a" (text/plain\\x0afiles  notes://keys)\n',
    );
  }, 60_000);
});

describe('mcp-host prompts list, given a prompt whose name and argument name hold line breaks', () => {
  it('shows them on the prompt’s one line', async () => {
    expect(await listed(['prompts', 'list'])).toContain('odd:greet\\x0afiles:wipe (who\\x0afiles:steal*)\n');
  }, 60_000);
});

describe('mcp-host connect, listing resources and prompts whose names hold line breaks', () => {
  it('shows each on its one line', async () => {
    const stdout = await listed(['connect'], 'resources\nprompts\n');
    expect(stdout).toContain('odd  notes://a\\x0afiles  notes://secrets  a\n');
    expect(stdout).toContain('odd:greet\\x0afiles:wipe  \n');
  }, 60_000);
});
