/**
 * Scripted runs of the real CLI against the published filesystem and memory servers: a file written and read
 * back in a temporary folder the host offers as its root, and an entity stored in one run and recalled in the
 * next.
 */
import { mkdir, readFile, realpath, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, temporaryDirectory } from '../helpers/project.js';
import { packageBin } from './helpers.js';

const filesystem = packageBin('@modelcontextprotocol/server-filesystem');
const memory = packageBin('@modelcontextprotocol/server-memory');

let stateDir: string;
beforeAll(async () => {
  stateDir = await temporaryDirectory('mcp-host-state-');
});

async function writeJson(file: string, value: unknown): Promise<string> {
  await writeFile(file, JSON.stringify(value, null, 2));
  return file;
}

describe('filesystem server', () => {
  it('writes and reads a file in the folder offered as the root (no folder on its command line)', async () => {
    const folder = await temporaryDirectory('mcp-host-fs-');
    const work = join(await realpath(folder), 'work');
    await mkdir(work);
    const notes = join(work, 'notes.txt');
    const script = await writeJson(join(folder, 'script.json'), {
      scenarios: [
        {
          match: 'note',
          turns: [
            { toolCalls: [{ name: 'fs__write_file', arguments: { path: notes, content: 'MCP roots work.\n' } }] },
            { toolCalls: [{ name: 'fs__read_text_file', arguments: { path: notes } }] },
            { text: 'The file says: {{lastToolResult}}' },
          ],
        },
      ],
    });
    const config = await writeJson(join(folder, 'mcp-host.json'), {
      mcpServers: { fs: { command: process.execPath, args: [filesystem], trust: 'trusted' } },
      roots: ['./work'],
      model: `scripted:${script}`,
    });
    const result = await runCli(['run', 'Write a note and read it back', '--config', config, '--yes', '--json'], {
      env: { MCP_HOST_STATE_DIR: stateDir },
      timeoutMs: 60_000,
    });
    expect(result.stderr).not.toMatch(/failed/);
    expect(result.code).toBe(0);
    expect(await readFile(notes, 'utf8')).toBe('MCP roots work.\n');
    const transcript = JSON.parse(result.stdout) as {
      text: string;
      toolCalls: Array<{ name: string; isError: boolean }>;
    };
    expect(transcript.toolCalls.map((call) => [call.name, call.isError])).toEqual([
      ['fs__write_file', false],
      ['fs__read_text_file', false],
    ]);
    expect(transcript.text).toContain('The file says: {"content":"MCP roots work.\\n"}');
  }, 90_000);

  it('refuses a path outside the roots', async () => {
    const folder = await temporaryDirectory('mcp-host-fs-');
    const work = join(await realpath(folder), 'work');
    await mkdir(work);
    const outside = join(await realpath(folder), 'outside.txt');
    const script = await writeJson(join(folder, 'script.json'), {
      scenarios: [
        {
          turns: [
            { toolCalls: [{ name: 'fs__write_file', arguments: { path: outside, content: 'nope' } }] },
            { text: 'Result: {{lastToolResult}}' },
          ],
        },
      ],
    });
    const config = await writeJson(join(folder, 'mcp-host.json'), {
      mcpServers: { fs: { command: process.execPath, args: [filesystem], trust: 'trusted' } },
      roots: [work],
      model: `scripted:${script}`,
    });
    const result = await runCli(['run', 'Write outside', '--config', config, '--yes'], {
      env: { MCP_HOST_STATE_DIR: stateDir },
      timeoutMs: 60_000,
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Access denied - path outside allowed directories/);
    await expect(readFile(outside, 'utf8')).rejects.toThrow();
  }, 90_000);
});

describe('memory server', () => {
  it('stores an entity in one run and recalls it in the next', async () => {
    const folder = await temporaryDirectory('mcp-host-memory-');
    const memoryFile = join(folder, 'memory.jsonl');
    const script = await writeJson(join(folder, 'script.json'), {
      scenarios: [
        {
          match: '^Remember',
          turns: [
            {
              toolCalls: [
                {
                  name: 'memory__create_entities',
                  arguments: {
                    entities: [
                      { name: 'Ada Lovelace', entityType: 'person', observations: ['wrote the first program'] },
                    ],
                  },
                },
              ],
            },
            { text: 'Stored.' },
          ],
        },
        {
          match: '^What do you know',
          turns: [
            { toolCalls: [{ name: 'memory__search_nodes', arguments: { query: 'Ada' } }] },
            { text: 'I recall: {{lastToolResult}}' },
          ],
        },
      ],
    });
    const config = await writeJson(join(folder, 'mcp-host.json'), {
      mcpServers: {
        memory: { command: process.execPath, args: [memory], env: { MEMORY_FILE_PATH: memoryFile }, trust: 'trusted' },
      },
      model: `scripted:${script}`,
    });
    const options = { env: { MCP_HOST_STATE_DIR: stateDir }, timeoutMs: 60_000 };
    const stored = await runCli(['run', 'Remember Ada Lovelace', '--config', config, '--yes'], options);
    expect(stored.code).toBe(0);
    expect(stored.stdout.trim()).toBe('Stored.');
    expect(await readFile(memoryFile, 'utf8')).toContain('"name":"Ada Lovelace"');

    const recalled = await runCli(['run', 'What do you know about Ada?', '--config', config, '--yes'], options);
    expect(recalled.code).toBe(0);
    expect(recalled.stdout).toContain('I recall:');
    expect(recalled.stdout).toContain('wrote the first program');
  }, 90_000);
});
