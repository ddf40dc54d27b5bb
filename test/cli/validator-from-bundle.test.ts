/**
 * `tools call` checks arguments with the validator the CLI's bundle carries (a chunk of its own, imported while the
 * server starts), not with Ajv's hundred files resolved from node_modules on the first call; and so a result's
 * structuredContent against the tool's outputSchema.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { EXIT_USAGE } from '../../src/cli/exit-codes.js';
import {
  bundledCliPath,
  exampleServer,
  fixtureServer,
  repoRoot,
  runCli,
  temporaryDirectory,
  writeConfig,
} from '../helpers/project.js';

const recorder = pathToFileURL(join(repoRoot, 'test', 'fixtures', 'loaded-modules', 'record.mjs')).href;

describe('the argument validator of the bundled CLI', () => {
  it('refuses arguments that do not fit the schema without loading Ajv from node_modules', async () => {
    const config = await writeConfig({
      mcpServers: { calc: { command: process.execPath, args: [exampleServer('calculator')] } },
    });
    const list = join(await temporaryDirectory(), 'modules.txt');
    const result = await runCli(['tools', 'call', '--config', config, 'calc__divide', 'a=1'], {
      cli: bundledCliPath(),
      env: { NODE_OPTIONS: `--import=${recorder}`, MCP_HOST_TEST_LOADED_MODULES: list },
      timeoutMs: 120_000,
    });
    expect(result.stderr).toContain('- b: is required');
    expect(result.code).toBe(EXIT_USAGE);
    const modules = (await readFile(list, 'utf8')).split('\n').filter((line) => line !== '');
    expect(modules.some((url) => url.includes('/dist/bundle/cli/'))).toBe(true);
    expect(modules.filter((url) => url.includes('/node_modules/ajv/'))).toEqual([]);
  }, 150_000);

  it("checks a result's structuredContent against its outputSchema without loading Ajv from node_modules", async () => {
    const config = await writeConfig({
      mcpServers: { forwarding: { command: process.execPath, args: [fixtureServer('forwarding.mjs')] } },
    });
    const list = join(await temporaryDirectory(), 'modules.txt');
    const result = await runCli(['tools', 'call', '--config', config, 'forwarding__numbers', 'count=3', '--json'], {
      cli: bundledCliPath(),
      env: { NODE_OPTIONS: `--import=${recorder}`, MCP_HOST_TEST_LOADED_MODULES: list },
      timeoutMs: 120_000,
    });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      result: { structuredContent: { count: 3, numbers: [1, 2, 3] } },
    });
    const modules = (await readFile(list, 'utf8')).split('\n').filter((line) => line !== '');
    expect(modules.some((url) => url.includes('/dist/bundle/cli/'))).toBe(true);
    expect(modules.filter((url) => url.includes('/node_modules/ajv/'))).toEqual([]);
  }, 150_000);
});
