/**
 * `mcp-host serve` reached by the official MCP Inspector's command-line client (`@modelcontextprotocol/inspector-cli`,
 * built on the v1 TypeScript SDK), over stdio and over Streamable HTTP with a bearer token: it lists the tools and
 * calls one, and the call is audited with the Inspector as the client.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditRecords } from '../helpers/audit-records.js';
import { writeFixtureServersConfig } from '../helpers/fixture-servers-config.js';
import { cliPath, temporaryDirectory } from '../helpers/project.js';
import { textOf } from '../helpers/text-of.js';

const run = promisify(execFile);
const require = createRequire(import.meta.url);
/** The Inspector's CLI entry (`build/index.js`): the package's `mcp-inspector-cli` bin only re-launches it. */
const inspector = join(
  dirname(require.resolve('@modelcontextprotocol/inspector-cli/package.json')),
  'build',
  'index.js',
);
const token = 'an-inspector-test-token-of-enough-length';

let config: string;
let stateDir: string;
let gateway: ChildProcess | undefined;
let gatewayUrl: string;

beforeAll(async () => {
  stateDir = await temporaryDirectory('mcp-host-inspector-state-');
  config = await writeFixtureServersConfig({ calculator: { example: 'calculator' } });
  const child = spawn(
    process.execPath,
    [cliPath, 'serve', '--http', '0', '--config', config, '--state-dir', stateDir],
    {
      env: { ...process.env, MCP_HOST_GATEWAY_TOKEN: token },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  gateway = child;
  gatewayUrl = await new Promise<string>((resolve, reject) => {
    let stderr = '';
    child.stderr?.on('data', (chunk) => {
      stderr += String(chunk);
      const match = /serving (http:\S+)/.exec(stderr);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`the gateway exited with ${code}:\n${stderr}`)));
  });
}, 120_000);

afterAll(async () => {
  if (gateway && gateway.exitCode === null && gateway.signalCode === null) {
    const exited = new Promise((resolve) => gateway?.once('exit', resolve));
    gateway.kill('SIGTERM');
    await exited;
  }
});

/** Runs the Inspector CLI once and parses the JSON it prints on stdout. */
async function inspect(target: string[], method: string[]): Promise<Record<string, unknown>> {
  // From its own folder: it finds its package.json (its client name) by a path relative to the working directory.
  const { stdout } = await run(process.execPath, [inspector, ...target, ...method], {
    cwd: dirname(inspector),
    timeout: 90_000,
  });
  return JSON.parse(stdout) as Record<string, unknown>;
}

async function auditedClients(): Promise<unknown[]> {
  return (await auditRecords(stateDir)).filter((record) => record.type === 'tool-call').map((record) => record.client);
}

describe('the MCP Inspector CLI as a client of mcp-host serve', () => {
  it('lists and calls tools over stdio', async () => {
    const target = [process.execPath, cliPath, 'serve', '--stdio', '--config', config, '--state-dir', stateDir];
    const listed = await inspect(target, ['--method', 'tools/list']);
    const names = (listed.tools as Array<{ name: string }>).map((tool) => tool.name);
    expect(names).toContain('calculator__add_numbers');

    const called = await inspect(target, [
      '--method',
      'tools/call',
      '--tool-name',
      'calculator__add_numbers',
      '--tool-arg',
      'a=20',
      'b=22',
    ]);
    expect(called.isError ?? false).toBe(false);
    expect(textOf(called)).toContain('42');
  }, 180_000);

  it('lists and calls tools over Streamable HTTP with a bearer token, refused without it', async () => {
    const target = [gatewayUrl, '--transport', 'http'];
    const withToken = ['--header', `Authorization: Bearer ${token}`];
    const listed = await inspect([...target, ...withToken], ['--method', 'tools/list']);
    expect((listed.tools as Array<{ name: string }>).map((tool) => tool.name)).toContain('calculator__multiply');

    const called = await inspect(
      [...target, ...withToken],
      ['--method', 'tools/call', '--tool-name', 'calculator__multiply', '--tool-arg', 'a=6', 'b=7'],
    );
    expect(textOf(called)).toContain('42');
    expect(await auditedClients()).toContainEqual(
      expect.objectContaining({ name: 'inspector-cli', principal: 'default' }),
    );

    await expect(inspect(target, ['--method', 'tools/list'])).rejects.toThrow(/needs \\"Authorization: Bearer TOKEN/);
  }, 180_000);
});
