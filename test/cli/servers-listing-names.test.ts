/**
 * `mcp-host servers` shows each server's own name and version (its `serverInfo`), which the server chose: a line break
 * in its name would start a line of the listing that passed for another server's (`files: connected (stdio, …)`). It
 * is shown on one line, the break as its escape. A real server process.
 */
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../helpers/in-process-cli.js';
import { lineBreakNamesConfig } from '../helpers/line-break-names.js';

describe('mcp-host servers, given a server whose own name holds a line break', () => {
  it('shows that name on its one line', async () => {
    const config = await lineBreakNamesConfig();
    const result = await runCliInProcess(['servers', '--config', config], { timeoutMs: 60_000 });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('(stdio, protocol ');
    expect(result.stdout).toContain(', line-break\\x0afiles: connected (stdio 1.0.0, 1 tool(s))\n');
    expect(result.stdout.split('\n').filter((line) => line.startsWith('files:'))).toEqual([]);
  }, 60_000);
});

describe('mcp-host resources list, given a resource whose URI and MIME type hold line breaks', () => {
  it('shows each on its resource’s one line', async () => {
    const config = await lineBreakNamesConfig();
    const result = await runCliInProcess(['resources', 'list', '--config', config], { timeoutMs: 60_000 });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(
      'odd  notes://a\\x0afiles  notes://secrets  "a" (text/plain\\x0afiles  notes://keys)\n',
    );
    expect(result.stdout.split('\n').filter((line) => line.startsWith('files'))).toEqual([]);
  }, 60_000);
});

describe('mcp-host prompts list, given a prompt whose name and argument name hold line breaks', () => {
  it('shows them on the prompt’s one line', async () => {
    const config = await lineBreakNamesConfig();
    const result = await runCliInProcess(['prompts', 'list', '--config', config], { timeoutMs: 60_000 });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('odd:greet\\x0afiles:wipe (who\\x0afiles:steal*)\n');
    expect(result.stdout.split('\n').filter((line) => line.startsWith('files'))).toEqual([]);
  }, 60_000);
});

describe('mcp-host connect, listing resources and prompts whose names hold line breaks', () => {
  it('shows each on its one line', async () => {
    const config = await lineBreakNamesConfig();
    const result = await runCliInProcess(['connect', '--config', config], {
      input: 'resources\nprompts\n',
      timeoutMs: 60_000,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('odd  notes://a\\x0afiles  notes://secrets  a\n');
    expect(result.stdout).toContain('odd:greet\\x0afiles:wipe  \n');
    expect(result.stdout.split('\n').filter((line) => line.startsWith('files'))).toEqual([]);
  }, 60_000);
});
