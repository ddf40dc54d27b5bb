/**
 * A server's strings are printed as text, never as terminal commands. A real server puts OSC (window title,
 * hyperlink), CSI (clear screen, cursor home, colours), a C1 CSI, a carriage return and a bell into its name and
 * version, its tool's description, its result, its stderr tail and its log messages; what the built CLI prints keeps
 * the words and none of the codes. JSON output keeps every character, escaped.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stripControlCodes } from '../../src/text/strip-control-codes.js';
import { bundledFixture } from '../helpers/bundled-fixture.js';
import { runCliInProcess } from '../helpers/in-process-cli.js';
import { repoRoot, runCli, writeConfig } from '../helpers/project.js';

const codesServer = bundledFixture(join(repoRoot, 'test', 'fixtures', 'secrets', 'terminal-codes-server.mjs'));
/** Each CLI run starts a server (and the one real-process run, Node); generous for a busy machine. */
const TIMEOUT_MS = 120_000;
/** Per CLI run: the first one in a worker also loads the command line's modules. */
const RUN = { timeoutMs: 90_000 };

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/u;

function expectNoControlCodes(text: string, where: string): void {
  const found = CONTROL.exec(text);
  expect(
    found,
    `${where} holds U+${found?.[0].codePointAt(0)?.toString(16)} near ${JSON.stringify(text.slice(Math.max(0, (found?.index ?? 0) - 20), (found?.index ?? 0) + 20))}`,
  ).toBeNull();
}

async function codesConfig(): Promise<string> {
  return writeConfig({ mcpServers: { codes: { command: process.execPath, args: [codesServer], trust: 'trusted' } } });
}

describe('terminal control codes from servers are not printed', () => {
  it('strips OSC, CSI, C1 and stray controls but keeps text, newlines and tabs', () => {
    const codes =
      '\u001b]0;title\u0007\u001b]8;;https://x\u001b\\link\u001b]8;;\u001b\\\u001b[2J\u001b[H\u001b[31mred\u001b[0m\u009b2J';
    expect(stripControlCodes(`a${codes}b`)).toBe('alinkredb');
    expect(stripControlCodes('one\r\ntwo\rthree\tfour\n')).toBe('one\ntwothree\tfour\n');
    expect(stripControlCodes('never closed \u001b]0;title and the rest')).toBe('never closed ');
    expect(stripControlCodes('bell\u0007 del\u007f nul\u0000 ünïcödé ✓')).toBe('bell del nul ünïcödé ✓');
  });

  it(
    'tools list, servers and tools call print the words without the codes',
    async () => {
      const config = await codesConfig();
      const list = await runCliInProcess(['tools', 'list', '--config', config], RUN);
      expect(list.stdout).toContain('description-marker');
      expectNoControlCodes(list.stdout, 'tools list');
      expectNoControlCodes(list.stderr, 'tools list stderr');

      const servers = await runCliInProcess(['servers', '--config', config], RUN);
      expect(servers.stdout).toContain('codes: connected');
      expectNoControlCodes(servers.stdout, 'servers');

      const call = await runCliInProcess(['tools', 'call', 'codes__paint', '--config', config], RUN);
      expect(call.stdout).toContain('result-marker');
      expectNoControlCodes(call.stdout, 'tools call stdout');
      expectNoControlCodes(call.stderr, 'tools call stderr');

      const failed = await runCliInProcess(['tools', 'call', 'codes__fail', '--config', config], RUN);
      expect(failed.stdout + failed.stderr).toContain('tail-marker');
      expectNoControlCodes(failed.stdout, 'a crash stdout');
      expectNoControlCodes(failed.stderr, 'a crash stderr');
    },
    TIMEOUT_MS,
  );

  it(
    'run --trace --verbose prints results and log messages without the codes',
    async () => {
      const { writeFile } = await import('node:fs/promises');
      const config = await codesConfig();
      const script = join(config, '..', 'script.json');
      await writeFile(
        script,
        JSON.stringify({
          scenarios: [{ turns: [{ toolCalls: [{ id: 'p1', name: 'codes__paint' }] }, { text: '{{lastToolResult}}' }] }],
        }),
      );
      // The one real process here: what reaches a real stdout and stderr through every writer the run uses.
      const run = await runCli(
        ['run', '--yes', '--trace', '--verbose', '--config', config, '--model', `scripted:${script}`, 'paint'],
        RUN,
      );
      expect(run.stdout).toContain('result-marker');
      expect(run.stderr).toContain('description-marker');
      expectNoControlCodes(run.stdout, 'run stdout');
      expectNoControlCodes(run.stderr, 'run stderr');
    },
    TIMEOUT_MS,
  );

  it(
    'JSON output keeps the characters, escaped',
    async () => {
      const config = await codesConfig();
      const servers = await runCliInProcess(['servers', '--json', '--config', config], RUN);
      expectNoControlCodes(servers.stdout, 'servers --json');
      const [status] = JSON.parse(servers.stdout) as Array<{ serverInfo?: { name: string }; stderrTail?: string }>;
      expect(status?.serverInfo?.name).toContain('\u001b]0;pwned title\u0007');
      expect(status?.serverInfo?.name).toContain('\u009b2J');
      expect(status?.stderrTail).toContain('stderr-marker');
    },
    TIMEOUT_MS,
  );
});
