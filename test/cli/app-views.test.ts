/**
 * MCP Apps on the host side: the extension is declared in the client capabilities; a tool with a view says so in the
 * terminal (`tools call`, `run`) with where the web UI shows it, while the model gets the normal result; an app-only
 * tool (`_meta.ui.visibility: ["app"]`) is neither offered to the model nor callable by it. Against the published
 * basic example server and a fixture whose views are written for the web UI tests.
 */
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../helpers/in-process-cli.js';
import { fixtureServer, repoRoot, writeConfig } from '../helpers/project.js';

const basicServer = join(
  repoRoot,
  'node_modules',
  '@modelcontextprotocol',
  'server-basic-vanillajs',
  'dist',
  'index.js',
);
let config: string;

beforeAll(async () => {
  config = await writeConfig({
    model: 'scripted:script.json',
    mcpServers: {
      basic: { command: process.execPath, args: [basicServer, '--stdio'], trust: 'trusted' },
      views: { command: process.execPath, args: [fixtureServer('app-views.mjs')], trust: 'trusted' },
    },
  });
  await writeFile(
    join(dirname(config), 'script.json'),
    JSON.stringify({
      scenarios: [
        {
          match: 'time',
          turns: [
            { toolCalls: [{ name: 'basic__get-time', arguments: {} }] },
            { toolCalls: [{ name: 'views__bump', arguments: { by: 2 } }] },
            {
              expect: { lastToolResultIsError: true, lastToolResultIncludes: 'views__bump' },
              text: 'done: {{lastToolResult}}',
            },
          ],
        },
      ],
    }),
  );
});

describe('MCP Apps in the terminal', () => {
  it('declares the extension in the client capabilities', async () => {
    const result = await runCliInProcess(['tools', 'call', 'views__capabilities', '--config', config], {
      timeoutMs: 60_000,
    });
    expect(result.code, result.stderr).toBe(0);
    const capabilities = JSON.parse(result.stdout) as { extensions?: Record<string, { mimeTypes?: string[] }> };
    expect(capabilities.extensions?.['io.modelcontextprotocol/ui']?.mimeTypes).toEqual(['text/html;profile=mcp-app']);
  }, 120_000);

  it('tools call prints the result and says where the view is', async () => {
    const result = await runCliInProcess(['tools', 'call', 'basic__get-time', '--config', config], {
      timeoutMs: 60_000,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(result.stderr).toContain(
      'basic__get-time has an interactive view (ui://get-time/mcp-app.html); open it in the web UI: run `mcp-host ui`, then go to /#/tools?tool=basic__get-time',
    );
  }, 120_000);

  it('run: the model gets the normal result, is not offered the app-only tool and cannot call it', async () => {
    const listed = await runCliInProcess(['tools', 'list', '--json', '--config', config], { timeoutMs: 60_000 });
    const names = (JSON.parse(listed.stdout) as Array<{ name: string }>).map((tool) => tool.name);
    expect(names).toContain('views__bump');
    const context = await runCliInProcess(['context', '--json', '--config', config], { timeoutMs: 60_000 });
    expect(context.code, context.stderr).toBe(0);
    // Every listed tool but the fixture's app-only ones (`visibility: ["app"]`).
    const appOnly = ['views__bump', 'views__read_once_exits'];
    for (const name of appOnly) expect(names).toContain(name);
    expect((JSON.parse(context.stdout) as { tools: { count: number } }).tools.count).toBe(
      names.length - appOnly.length,
    );

    const run = await runCliInProcess(['run', 'what time is it', '--config', config], { timeoutMs: 60_000 });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('basic__get-time has an interactive view (ui://get-time/mcp-app.html)');
    expect(run.stdout).toContain('Unknown tool "views__bump"');
  }, 180_000);
});
