/**
 * The host's own tools live in a namespace no server can take: `mcp-host__…`. A server that offers resources and
 * lists tools of its own named like the host's resource tools (`read_resource`, `host_read_resource`, even
 * `mcp-host__files__read_resource`) gets every one of them in the catalog under a name of its own, and each name
 * runs what it says. Server names starting with `mcp-host` are refused with a clear error.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config-error.js';
import { parseConfig } from '../../src/config/parse-config.js';
import { createHost } from '../../src/host/create-host.js';
import { bundledFixture } from '../helpers/bundled-fixture.js';
import { hostConfig, stdioServer } from '../helpers/configs.js';
import { repoRoot, runCli, temporaryDirectory } from '../helpers/project.js';
import {
  closeHosts,
  freshStateDir,
  openHost,
  RecordingApprover,
  resultText,
  scriptedModel,
  toolResultsIn,
} from './consent-helpers.js';

const resourceServerPath = bundledFixture(join(repoRoot, 'test', 'fixtures', 'consent', 'resource-server.mjs'));
const SERVER_TOOLS = ['read_resource', 'list_resources', 'host_read_resource', 'mcp-host__files__read_resource'];

afterEach(closeHosts);

describe("the host's own tools", () => {
  it('never share a name with a server tool, and each name runs its own tool', async () => {
    const provider = scriptedModel([
      {
        toolCalls: [
          { id: 'own', name: 'files__host_read_resource', arguments: { uri: 'file:///etc/passwd' } },
          { id: 'plain', name: 'files__read_resource', arguments: { uri: 'file:///etc/passwd' } },
          { id: 'host', name: 'mcp-host__files__read_resource', arguments: { uri: 'file:///notes/todo.md' } },
        ],
      },
      { text: 'done' },
    ]);
    const host = await openHost({
      config: hostConfig([
        stdioServer('files', [resourceServerPath], { trust: 'trusted', env: { TOOLS: JSON.stringify(SERVER_TOOLS) } }),
      ]),
      provider,
      approver: new RecordingApprover({ toolCall: () => 'allow-once' }),
    });

    const names = host.catalog().entries.map((entry) => entry.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(
      expect.arrayContaining([
        'files__read_resource',
        'files__list_resources',
        'files__host_read_resource',
        'mcp-host__files__list_resources',
        'mcp-host__files__read_resource',
      ]),
    );
    // The server's tool named like a host tool is namespaced under its server, like any of its tools.
    expect(names.filter((name) => name.startsWith('mcp-host__'))).toEqual([
      'mcp-host__files__list_resources',
      'mcp-host__files__read_resource',
    ]);

    await host.run('read');
    const results = toolResultsIn(provider.requests[1]);
    expect(resultText(results.get('own'))).toBe('server tool host_read_resource {"uri":"file:///etc/passwd"}');
    expect(resultText(results.get('plain'))).toBe('server tool read_resource {"uri":"file:///etc/passwd"}');
    expect(resultText(results.get('host'))).toContain('- water the plants');
  });

  it('refuses a server named mcp-host in a config file, naming the key and why', () => {
    let error: unknown;
    try {
      parseConfig(
        JSON.stringify({ mcpServers: { 'mcp-host-files': { command: 'node' } } }),
        '/projects/demo/mcp-host.json',
        {},
      );
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toBe(
      '/projects/demo/mcp-host.json: mcpServers.mcp-host-files: expected a server name that does not start with ' +
        '"mcp-host" (reserved for the host\'s own tools), found "mcp-host-files". Rename the server.',
    );
  });

  it('refuses such a name in a config built in code, in any case', async () => {
    await expect(
      createHost({ config: hostConfig([stdioServer('MCP-Host', [resourceServerPath])]), stateDir: freshStateDir() }),
    ).rejects.toThrow(/mcpServers\.MCP-Host: expected a server name that does not start with "mcp-host"/);
  });

  it('the CLI exits 2 with the reason', async () => {
    const directory = await temporaryDirectory();
    const file = join(directory, 'mcp-host.json');
    await writeFile(file, JSON.stringify({ mcpServers: { 'mcp-host': { command: 'node' } } }));
    const result = await runCli(['tools', 'list', '--config', file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('mcpServers.mcp-host: expected a server name that does not start with "mcp-host"');
    expect(result.stdout).toBe('');
  });
});
