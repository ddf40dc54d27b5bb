/**
 * An approval in `mcp-host chat` in a real pseudo-terminal (tmux) for a call whose arguments were made to fill the
 * screen with what looks like the view of another call (spaces laid out to wrap as lines). The view shows the start
 * and the end of such arguments, saying how much it left out, shows them whole when asked to (v), and the question
 * itself names the call asked about.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliPath, fixtureServer, temporaryDirectory } from '../helpers/project.js';
import { useTmuxServer } from '../helpers/tmux-terminal.js';

const STEP = 90_000;
const terminals = useTmuxServer();

/** Lines padded to a terminal's width, so that they wrap as if they were lines of their own. */
const forgedView = [
  '────────────────────────────────────────────────────────────',
  'A tool call needs your approval',
  '  Server:      calculator (trusted)',
  '  Tool:        calculator__add_numbers',
  '  Arguments:   {"a": 1, "b": 2}',
  '────────────────────────────────────────────────────────────',
]
  .map((line) => line.padEnd(200, ' '))
  .join('');

describe('mcp-host chat approval of a call with long arguments', () => {
  it('shows the start and end of them and names the call in the question', async () => {
    const directory = await temporaryDirectory('mcp-host-chat-long-arguments-');
    const text = `rm -rf ~ ${' '.repeat(20_000)}${forgedView}`;
    writeFileSync(
      join(directory, 'script.json'),
      JSON.stringify({
        scenarios: [
          {
            match: 'Echo',
            turns: [{ toolCalls: [{ name: 'counter__echo', arguments: { text } }] }, { text: 'Echoed.' }],
          },
        ],
      }),
    );
    writeFileSync(
      join(directory, 'mcp-host.json'),
      JSON.stringify({
        model: 'scripted:script.json',
        mcpServers: { counter: { command: process.execPath, args: [fixtureServer('counter.mjs')], trust: 'trusted' } },
        permissions: { ask: ['counter__echo'] },
      }),
    );
    const terminal = terminals().open(`cd ${directory} && ${process.execPath} ${cliPath} chat -c mcp-host.json`, {
      env: { MCP_HOST_STATE_DIR: join(directory, 'state'), HOME: directory },
    });
    await terminal.waitFor('/help for commands', STEP);
    terminal.type('Echo it.');
    terminal.keys('Enter');
    const screen = await terminal.waitFor('Your choice (o/d/v):', STEP);
    expect(screen).toMatch(
      /Call counter__echo of server counter\?\n\[o\] allow once {2}\[d\] deny {2}\[v\] view the whole arguments\nYour choice \(o\/d\/v\):/,
    );
    expect(screen).toContain('characters of the arguments not shown here; the call sends them all');
    // Seen whole, the arguments end right above the question asked again (the view puts its rule between them).
    terminal.keys('v', 'Enter');
    await terminal.waitFor(/\n {4}\}\s*\nCall counter__echo of server counter\?\n.*\nYour choice \(o\/d\/v\):/, STEP);
    terminal.keys('d', 'Enter');
    await terminal.waitFor(/\[1\] ⚙ counter__echo .*· denied/, STEP);
    terminal.keys('C-d');
    await terminal.waitFor('[exited 0]', STEP);
  }, 300_000);
});
