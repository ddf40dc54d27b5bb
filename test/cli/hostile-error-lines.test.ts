/**
 * An error or warning line quotes what a config said: a key 100,000 characters long, with a control sequence in it,
 * comes out as a line a person can read that still names the file and the field, with nothing a terminal acts on.
 */
import { describe, expect, it } from 'vitest';
import { exampleServer, runCli, writeConfig } from '../helpers/project.js';

const HOSTILE_KEY = `\u001b[2J${'x'.repeat(100_000)}`;
/** Room for the file's path and what is wrong, and far less than the key. */
const READABLE_LINE = 400;

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function linesOf(stderr: string): string[] {
  return stderr.split('\n').filter((line) => line !== '');
}

/**
 * `mcp-host servers` on `config`, which it refuses: the config file and the one error line, checked to be short, with
 * nothing a terminal acts on.
 */
async function errorLineAbout(config: Record<string, unknown>): Promise<{ file: string; line: string }> {
  const file = await writeConfig(config);
  const result = await runCli(['servers', '--config', file], { timeoutMs: 60_000 });
  expect(result.code, result.stderr.slice(0, 500)).toBe(2);
  expect(result.stderr).not.toContain('\u001b');
  const [line, ...rest] = linesOf(result.stderr);
  expect(rest).toEqual([]);
  expect(line!.length).toBeLessThan(READABLE_LINE);
  return { file, line: line! };
}

/**
 * `mcp-host servers` on `config`, which starts its server and warns about a key: the config file and the warning line
 * that names it, checked to be short, with nothing a terminal acts on anywhere on stderr.
 */
async function warningAbout(config: Record<string, unknown>): Promise<{ file: string; warning: string }> {
  const file = await writeConfig(config);
  const result = await runCli(['servers', '--config', file], { timeoutMs: 60_000 });
  expect(result.code, result.stderr.slice(0, 500)).toBe(0);
  expect(result.stderr).not.toContain('\u001b');
  const warning = linesOf(result.stderr).find((line) => line.startsWith(`mcp-host: ${file}:`));
  expect(warning, result.stderr.slice(0, 500)).toBeDefined();
  expect(warning!.length).toBeLessThan(READABLE_LINE);
  return { file, warning: warning! };
}

describe('a hostile key in a config', { timeout: 120_000 }, () => {
  it('names the file and the server in a short error line when the key is a server name', async () => {
    const { file, line } = await errorLineAbout({ mcpServers: { [HOSTILE_KEY]: { command: 5 } } });
    expect(line).toMatch(
      new RegExp(
        `^mcp-host: ${escaped(file)}: mcpServers\\["\\\\u001b\\[2Jx+…"\\]\\.command: expected a command to run`,
      ),
    );
  });

  it('says what is wrong in a short error line when two keys of its path are invisible characters, each shown as an escape', async () => {
    // Each zero-width space is shown as `\u200b`, six characters: cut by its own length, a key filled the line.
    const invisible = '\u200b'.repeat(1_000);
    const { file, line } = await errorLineAbout({
      mcpServers: { [invisible]: { command: 'node', env: { [invisible]: 5 } } },
    });
    expect(line).toMatch(
      new RegExp(`^mcp-host: ${escaped(file)}: mcpServers\\["(\\\\u200b)+…"\\]\\.env\\["(\\\\u200b)+…"\\]: expected `),
    );
  });

  it('names the file and the field in a short warning line when the key is a misspelt setting', async () => {
    const { file, warning } = await warningAbout({
      mcpServers: { calc: { command: process.execPath, args: [exampleServer('calculator')], [HOSTILE_KEY]: true } },
    });
    expect(warning).toMatch(
      new RegExp(
        `^mcp-host: ${escaped(file)}: mcpServers\\.calc\\["\\\\u001b\\[2Jx+…"\\]: not a setting mcp-host uses`,
      ),
    );
  });

  it('names the file and the unknown server in a short warning line when the key is a sampling server', async () => {
    const { file, warning } = await warningAbout({
      mcpServers: { calc: { command: process.execPath, args: [exampleServer('calculator')] } },
      sampling: { servers: { [HOSTILE_KEY]: 'scripted:model.json' } },
    });
    expect(warning).toMatch(
      new RegExp(
        `^mcp-host: ${escaped(file)}: sampling\\.servers\\["\\\\u001b\\[2Jx+…"\\]: no server is named "\\\\u001b\\[2Jx+…"; ignored$`,
      ),
    );
  });
});
