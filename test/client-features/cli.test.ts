/**
 * The `mcp-host` command line (run in the test worker) against server-everything: `resources`, `prompts`, `run --prompt`, and what a run without a
 * terminal does with servers' requests (sampling declined unless `--allow-sampling`, forms declined, log messages
 * shown with `--verbose`).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../helpers/in-process-cli.js';
import { type CliResult, temporaryDirectory } from '../helpers/project.js';
import { packageBin } from './helpers.js';

const everything = packageBin('@modelcontextprotocol/server-everything');

let folder: string;
let config: string;
let env: Record<string, string>;

beforeAll(async () => {
  folder = await temporaryDirectory('mcp-host-cli-features-');
  const script = join(folder, 'script.json');
  await writeFile(
    script,
    JSON.stringify({
      fallbackText: 'no scenario matched',
      scenarios: [
        { match: '^Resource trigger-sampling-request context', turns: [{ text: 'A sampled haiku.' }] },
        {
          match: '^This prompt includes the Text resource with id: (\\d+)',
          turns: [{ text: 'I read resource {{match.1}}.' }],
        },
        {
          match: '^sample',
          turns: [
            { toolCalls: [{ name: 'everything__trigger-sampling-request', arguments: { prompt: 'a haiku' } }] },
            { text: 'Tool said: {{lastToolResult}}' },
          ],
        },
        // One run shows two things: what it does with the server's request, and whether the log messages it
        // sent meanwhile are shown (each run starts the server: most of a second of CPU).
        {
          match: '^with logging: form',
          turns: [
            { toolCalls: [{ name: 'everything__toggle-simulated-logging' }] },
            {
              toolCalls: [
                { name: 'everything__trigger-long-running-operation', arguments: { duration: 0.3, steps: 1 } },
              ],
            },
            { toolCalls: [{ name: 'everything__toggle-simulated-logging' }] },
            { toolCalls: [{ name: 'everything__trigger-elicitation-request' }] },
            { text: 'Tool said: {{lastToolResult}}' },
          ],
        },
        {
          match: '^with logging: sample',
          turns: [
            { toolCalls: [{ name: 'everything__toggle-simulated-logging' }] },
            {
              toolCalls: [
                { name: 'everything__trigger-long-running-operation', arguments: { duration: 0.3, steps: 1 } },
              ],
            },
            { toolCalls: [{ name: 'everything__toggle-simulated-logging' }] },
            { toolCalls: [{ name: 'everything__trigger-sampling-request', arguments: { prompt: 'a haiku' } }] },
            { text: 'Tool said: {{lastToolResult}}' },
          ],
        },
      ],
    }),
  );
  config = join(folder, 'mcp-host.json');
  await writeFile(
    config,
    JSON.stringify({
      mcpServers: { everything: { command: process.execPath, args: [everything, 'stdio'], trust: 'trusted' } },
      model: `scripted:${script}`,
    }),
  );
  env = { MCP_HOST_STATE_DIR: join(folder, 'state') };
});

const cli = (args: string[]) => runCliInProcess([...args, '--config', config], { env, timeoutMs: 60_000 });

/** A run started by the first test that needs it; the tests after it assert on the same output. */
function sharedRun(args: string[]): () => Promise<CliResult> {
  let result: Promise<CliResult> | undefined;
  return () => {
    result ??= cli(args);
    return result;
  };
}

/** Logs with --verbose, then asks for a form. */
const verboseFormRun = sharedRun(['run', 'with logging: form', '--yes', '--verbose']);
/** Logs without --verbose, then asks to sample. */
const quietSamplingRun = sharedRun(['run', 'with logging: sample', '--yes']);

describe('mcp-host resources', () => {
  it('lists resources and templates by server', async () => {
    const result = await cli(['resources', 'list']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      'everything  demo://resource/static/document/architecture.md  "architecture.md" (text/markdown)',
    );
    expect(result.stdout).toContain('everything  demo://resource/dynamic/text/{resourceId}  "Dynamic Text Resource"');
    const json = await cli(['resources', 'list', '--json']);
    const listings = JSON.parse(json.stdout) as Array<{ server: string; templates: unknown[] }>;
    expect(listings[0]).toMatchObject({ server: 'everything' });
    expect(listings[0]?.templates).toHaveLength(2);
  }, 60_000);

  it('reads a resource by URI (from a template), decoding binary text', async () => {
    const text = await cli(['resources', 'read', 'demo://resource/dynamic/text/7']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^Resource 7: This is a plaintext resource created at /);
    const blob = await cli(['resources', 'read', 'demo://resource/dynamic/blob/8']);
    expect(blob.stdout).toMatch(/^Resource 8: This is a base64 blob created at /);
    const json = await cli(['resources', 'read', 'demo://resource/dynamic/blob/8', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({
      server: 'everything',
      contents: [{ uri: 'demo://resource/dynamic/blob/8', mimeType: 'text/plain', blob: expect.any(String) }],
    });
  }, 60_000);

  it('fails with exit code 1 and the server error for an unknown resource', async () => {
    const result = await cli([
      'resources',
      'read',
      'demo://resource/static/document/missing.md',
      '--server',
      'everything',
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/mcp-host: reading demo:\/\/resource\/static\/document\/missing\.md failed: /);
  }, 60_000);
});

describe('mcp-host prompts', () => {
  it('lists prompts with their arguments, required ones starred', async () => {
    const result = await cli(['prompts', 'list']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('everything:simple-prompt  A prompt with no arguments');
    expect(result.stdout).toContain('everything:args-prompt (city*, state)');
  }, 60_000);

  it('gets a prompt with its arguments filled in, by server:NAME or by NAME alone', async () => {
    const result = await cli(['prompts', 'get', 'everything:args-prompt', 'city=Paris', 'state=Texas']);
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe("[user] What's weather in Paris, Texas?");
    const embedded = await cli(['prompts', 'get', 'resource-prompt', 'resourceType=Text', 'resourceId=2', '--json']);
    const prompt = JSON.parse(embedded.stdout) as { server: string; messages: Array<{ content: { type: string } }> };
    expect(prompt.server).toBe('everything');
    expect(prompt.messages.map((message) => message.content.type)).toEqual(['text', 'resource']);
  }, 60_000);

  it('rejects an argument that is not key=value with exit code 2', async () => {
    const result = await cli(['prompts', 'get', 'everything:args-prompt', 'Paris']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('prompt argument "Paris" is not key=value');
  }, 60_000);
});

describe('mcp-host run with servers asking the client', () => {
  it('starts a run from a server prompt: its messages, embedded resource included, open the conversation', async () => {
    const result = await cli([
      'run',
      '--json',
      '--prompt',
      'everything:resource-prompt',
      'resourceType=Text',
      'resourceId=4',
    ]);
    expect(result.code).toBe(0);
    const transcript = JSON.parse(result.stdout) as {
      text: string;
      messages: Array<{ role: string; content: Array<{ type: string; text?: string }> }>;
    };
    expect(transcript.text).toBe('I read resource 4.');
    const [opening] = transcript.messages;
    expect(opening?.role).toBe('user');
    expect(opening?.content[0]?.text).toBe(
      'This prompt includes the Text resource with id: 4. Please analyze the following resource:',
    );
    expect(opening?.content[1]?.text).toMatch(
      /^\[resource demo:\/\/resource\/dynamic\/text\/4 \(text\/plain\)\]\nResource 4: This is a plaintext resource/,
    );
  }, 60_000);

  it('asks for a prompt or --prompt', async () => {
    const result = await cli(['run']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--prompt server:NAME');
  }, 60_000);

  it('declines sampling with no terminal, and allows it with --allow-sampling', async () => {
    const declined = await quietSamplingRun();
    expect(declined.code).toBe(0);
    expect(declined.stdout).toContain('User rejected sampling request');
    expect(declined.stdout).not.toContain('A sampled haiku.');

    const allowed = await cli(['run', 'sample', '--yes', '--allow-sampling']);
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toContain('LLM sampling result');
    expect(allowed.stdout).toContain('A sampled haiku.');
  }, 90_000);

  it('declines a form with no terminal', async () => {
    const result = await verboseFormRun();
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('User declined to provide the requested information.');
  }, 60_000);

  it("shows servers' log messages on stderr with --verbose only", async () => {
    const verbose = await verboseFormRun();
    expect(verbose.code).toBe(0);
    expect(verbose.stderr).toMatch(/^mcp-host: \[everything\] \d{4}-\d{2}-\d{2}T\S+ \w+ .*[Ll]evel[- ]message/m);
    const quiet = await quietSamplingRun();
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).not.toMatch(/[Ll]evel[- ]message/);
  }, 90_000);
});
