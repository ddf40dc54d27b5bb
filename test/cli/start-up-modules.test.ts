/**
 * A command loads only what it uses: `--help` no host at all, `tools list` no model provider, no tokenizer, no
 * search index and no gateway. tsc's output of the CLI (one file per module) runs with a preload that records every module it loads (test/fixtures/loaded-modules).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  exampleServer,
  repoRoot,
  runCli,
  temporaryDirectory,
  unbundledCliPath,
  writeConfig,
} from '../helpers/project.js';

const recorder = pathToFileURL(join(repoRoot, 'test', 'fixtures', 'loaded-modules', 'record.mjs')).href;

interface Started {
  stdout: string;
  code: number | null;
  modules: string[];
}

async function startRecorded(args: string[]): Promise<Started> {
  const list = join(await temporaryDirectory(), 'modules.txt');
  const result = await runCli(args, {
    cli: unbundledCliPath,
    env: { NODE_OPTIONS: `--import=${recorder}`, MCP_HOST_TEST_LOADED_MODULES: list },
    timeoutMs: 120_000,
  });
  const modules = (await readFile(list, 'utf8')).split('\n').filter((line) => line !== '');
  return { stdout: result.stdout, code: result.code, modules };
}

/** The npm packages among the loaded modules, by name. */
function packages(modules: string[]): string[] {
  const names = modules.flatMap((url) => {
    const match = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
    return match ? [match[1]!] : [];
  });
  return [...new Set(names)].sort();
}

/** The project's own folders under src/ among the loaded modules. */
function sourceFolders(modules: string[]): string[] {
  const names = modules.flatMap((url) => {
    const match = /\/dist\/src\/(.+)\/[^/]+\.js$/.exec(url);
    return match ? [match[1]!] : [];
  });
  return [...new Set(names)].sort();
}

let help: Started;
let toolsList: Started;
let runWithoutKey: Started;

beforeAll(async () => {
  help = await startRecorded(['--help']);
  const config = await writeConfig({
    mcpServers: { calc: { command: process.execPath, args: [exampleServer('calculator')] } },
  });
  toolsList = await startRecorded(['tools', 'list', '--config', config]);
  runWithoutKey = await startRecorded(['run', '--model', 'anthropic:claude-sonnet-4-6', '--config', config, 'hello']);
}, 240_000);

describe('start-up loads only what the command uses', () => {
  it('--help lists every command and loads commander alone: the command line, its text helpers and where a --root points, none of the host', () => {
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('tools ');
    expect(help.stdout).toContain('serve [options]');
    expect(packages(help.modules)).toEqual(['commander']);
    expect(sourceFolders(help.modules)).toEqual(['cli', 'config', 'text']);
    // Of the config, only where a --root points (its check runs as the option is parsed), not the loader.
    expect(
      help.modules.filter((url) => url.includes('/dist/src/config/')).map((url) => url.replace(/.*\/dist\/src\//, '')),
    ).toEqual(['config/root-url.js']);
  });

  it('tools list loads no model provider SDK, no tokenizer, no gateway, no OAuth, no validator, no YAML, no search index', () => {
    expect(toolsList.code).toBe(0);
    expect(toolsList.stdout).toContain('calc__add_numbers');
    const loaded = packages(toolsList.modules);
    for (const name of [
      'gpt-tokenizer',
      '@anthropic-ai/sdk',
      'openai',
      '@google/genai',
      '@modelcontextprotocol/server',
      '@modelcontextprotocol/node',
      // Argument validation loads Ajv on a tool's first call; skills load YAML on the first SKILL.md.
      'ajv',
      'yaml',
      // Tool discovery builds its search index on the model's first search; listing never searches.
      'minisearch',
    ]) {
      expect(loaded).not.toContain(name);
    }
    const folders = sourceFolders(toolsList.modules);
    expect(folders).not.toContain('gateway');
    // A host of stdio servers needs no OAuth.
    expect(folders).not.toContain('connections/oauth');
    for (const vendor of ['anthropic', 'gemini', 'openai-chat', 'openai-responses', 'openai-compatible']) {
      expect(folders).not.toContain(`providers/${vendor}`);
    }
    // Conversations, the agent loop and calling a tool are loaded when used, not to list.
    expect(folders).not.toContain('sessions');
    expect(toolsList.modules.some((url) => url.endsWith('/loop/run-agent.js'))).toBe(false);
    expect(toolsList.modules.some((url) => url.endsWith('/cli/commands/tools-call.js'))).toBe(false);
    expect(toolsList.modules.some((url) => url.endsWith('/catalog/tool-search.js'))).toBe(false);
  });

  it('run with no key for its model stops before loading the host, the MCP client or any server', () => {
    expect(runWithoutKey.code).toBe(2);
    expect(packages(runWithoutKey.modules)).not.toContain('@modelcontextprotocol/client');
    expect(runWithoutKey.modules.some((url) => url.endsWith('/host/create-host.js'))).toBe(false);
    expect(sourceFolders(runWithoutKey.modules)).not.toContain('connections');
  });
});
