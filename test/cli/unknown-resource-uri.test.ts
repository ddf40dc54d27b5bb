/**
 * `resources read` of a URI no server lists is a usage error (exit 2) naming the URI and a close one, as an unknown
 * tool is, and the server is never asked; with `--server` it is asked anyway, and its refusal is a failed run (exit 1).
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { bundledFixture } from '../helpers/bundled-fixture.js';
import { runCliInProcess } from '../helpers/in-process-cli.js';
import { repoRoot, temporaryDirectory, writeConfig } from '../helpers/project.js';

const resourceServer = bundledFixture(join(repoRoot, 'test', 'fixtures', 'consent', 'resource-server.mjs'));
const RUN = { timeoutMs: 60_000 };
let config: string;
let stateDir: string;

beforeAll(async () => {
  stateDir = join(await temporaryDirectory('mcp-host-unknown-resource-'), 'state');
  config = await writeConfig({
    mcpServers: { files: { command: process.execPath, args: [resourceServer], trust: 'trusted' } },
  });
});

describe('resources read of a URI no server lists', () => {
  it('exits 2 naming the URI and the close one, without reading it', async () => {
    const result = await runCliInProcess(['resources', 'read', 'file:///notes/todo.txt', '--config', config], {
      ...RUN,
      stateDir,
    });
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(
      'mcp-host: unknown resource "file:///notes/todo.txt": no server lists it or a template for it (did you mean file:///notes/todo.md?); to ask one anyway, name it with --server (files)',
    );
    expect(result.code).toBe(2);
  }, 90_000);

  it('with --server asks that server, and its refusal is a failed run (exit 1)', async () => {
    const result = await runCliInProcess(
      ['resources', 'read', 'file:///notes/todo.txt', '--server', 'files', '--config', config],
      { ...RUN, stateDir },
    );
    expect(result.stderr).toContain('mcp-host: reading file:///notes/todo.txt failed: ');
    expect(result.code).toBe(1);
  }, 90_000);

  it('exits 2 when no server offers resources at all', async () => {
    const empty = await writeConfig({ mcpServers: {} });
    const result = await runCliInProcess(['resources', 'read', 'file:///x', '--config', empty], { ...RUN, stateDir });
    expect(result.stderr).toContain('mcp-host: unknown resource "file:///x": no connected server offers resources');
    expect(result.code).toBe(2);
  }, 90_000);
});
