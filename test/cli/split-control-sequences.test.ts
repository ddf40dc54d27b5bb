/**
 * A model's answer streamed in pieces cut inside its terminal control sequences (a window title, the alternate
 * screen): `run` and `chat` (in a real pseudo-terminal, tmux) remove each sequence whole, where the piece holding its
 * introducer lost it and the next printed the tail (`]0;pwned`, `[?1049h`) as text.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { splitIntoChunks } from '../../src/testing/split-into-chunks.js';
import { cliPath, fixtureServer, runCli, temporaryDirectory } from '../helpers/project.js';
import { useTmuxServer } from '../helpers/tmux-terminal.js';

const STEP = 90_000;
const ANSWER = 'Done\u001b]0;pwned title\u0007 and \u001b[?1049h ok.';
const terminals = useTmuxServer();

async function project(): Promise<string> {
  const directory = await temporaryDirectory('mcp-host-split-codes-');
  writeFileSync(
    join(directory, 'script.json'),
    JSON.stringify({ scenarios: [{ match: 'Hello', turns: [{ text: ANSWER }] }] }),
  );
  writeFileSync(
    join(directory, 'mcp-host.json'),
    JSON.stringify({
      model: 'scripted:script.json',
      mcpServers: { counter: { command: process.execPath, args: [fixtureServer('counter.mjs')], trust: 'trusted' } },
    }),
  );
  return directory;
}

describe('an answer streamed in pieces cut inside control sequences', () => {
  it('is cut there by the scripted model', () => {
    const pieces = splitIntoChunks(ANSWER);
    expect(pieces[0]?.endsWith('\u001b]0;pwned')).toBe(true);
    expect(pieces[1]?.endsWith('\u001b')).toBe(true);
  });

  it('run prints it without the sequences or their tails', async () => {
    const directory = await project();
    const result = await runCli(['run', '-c', 'mcp-host.json', 'Hello'], {
      cwd: directory,
      stateDir: join(directory, 'state'),
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('Done and  ok.\n');
  });

  it('chat shows it without the sequences or their tails', async () => {
    const directory = await project();
    const terminal = terminals().open(`cd ${directory} && ${process.execPath} ${cliPath} chat -c mcp-host.json`, {
      env: { MCP_HOST_STATE_DIR: join(directory, 'state'), HOME: directory },
    });
    await terminal.waitFor('/help for commands', STEP);
    terminal.type('Hello');
    terminal.keys('Enter');
    const screen = await terminal.waitFor('Done and  ok.', STEP);
    expect(screen).not.toMatch(/pwned|1049h|\]0;/);
    terminal.keys('C-d');
    await terminal.waitFor('[exited 0]', STEP);
  }, 300_000);
});
