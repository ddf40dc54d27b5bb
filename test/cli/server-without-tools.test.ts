/**
 * A server that offers no tools (only resources): the host does not ask it for tools, so the client library's
 * "server does not advertise tools capability" notice never reaches stdout, where it would break `--json`
 * output and the `serve --stdio` protocol channel.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { bundledFixture } from '../helpers/bundled-fixture.js';
import { runCliInProcess } from '../helpers/in-process-cli.js';
import { repoRoot, writeConfig } from '../helpers/project.js';

const resourceServer = bundledFixture(join(repoRoot, 'test', 'fixtures', 'consent', 'resource-server.mjs'));
let config: string;

beforeAll(async () => {
  config = await writeConfig({
    mcpServers: { files: { command: process.execPath, args: [resourceServer], env: { TOOLS: '[]' } } },
  });
});

describe('a server without tools', () => {
  it('keeps stdout clean: resources list --json is JSON and nothing but', async () => {
    const result = await runCliInProcess(['resources', 'list', '--json', '--config', config], { timeoutMs: 60_000 });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).not.toContain('advertise');
    const listings = JSON.parse(result.stdout) as Array<{ server: string; resources: Array<{ uri: string }> }>;
    expect(listings[0]?.resources.map((resource) => resource.uri)).toContain('file:///notes/todo.md');
    expect(result.stderr).not.toContain('listTools');
    // Listed: no note that nothing is offered.
    expect(result.stderr).not.toContain('offers no');
  }, 90_000);

  it('says on stderr which servers were asked when none offers any, keeping stdout empty', async () => {
    const prompts = await runCliInProcess(['prompts', 'list', '--config', config], { timeoutMs: 60_000 });
    expect(prompts.code, prompts.stderr).toBe(0);
    expect(prompts.stdout).toBe('');
    expect(prompts.stderr).toContain('mcp-host: the server "files" offers no prompts');
    const json = await runCliInProcess(['prompts', 'list', '--json', '--config', config], { timeoutMs: 60_000 });
    expect(JSON.parse(json.stdout)).toEqual([]);
    expect(json.stderr).not.toContain('offers no');
  }, 90_000);
});
