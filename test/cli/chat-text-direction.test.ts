/**
 * `mcp-host chat` in a real pseudo-terminal (tmux): text-direction overrides sent by the model and by a server (the
 * `counter` fixture echoes what it is given) never reach the terminal, where a terminal that lays out bidirectional
 * text would reorder the rest of the line — a call's arguments, its outcome, the answer. A call's arguments show them,
 * and a zero-width space, as escapes (what the call sent, as the approval view shows it); the result and the answer
 * are prose: direction controls removed, a zero-width space shown as its escape.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliPath, fixtureServer, temporaryDirectory } from '../helpers/project.js';
import { useTmuxServer } from '../helpers/tmux-terminal.js';

const STEP = 90_000;
const OVERRIDES = /[\u202a-\u202e\u2066-\u2069]/u;
const terminals = useTmuxServer();

describe('mcp-host chat and text-direction controls', () => {
  it('prints what the model and a server send without embedding, override or isolate characters', async () => {
    const directory = await temporaryDirectory('mcp-host-chat-direction-');
    const hidden = 'report\u202efdp.exe\u202c d\u200bone';
    writeFileSync(
      join(directory, 'script.json'),
      JSON.stringify({
        scenarios: [
          {
            match: 'Echo',
            turns: [
              { toolCalls: [{ name: 'counter__echo', arguments: { text: hidden } }] },
              { text: 'Saved \u2067as\u2069 **\u202bthis\u202c** and \u202dthat\u202c.\n- item \u202eone\u202c' },
            ],
          },
        ],
      }),
    );
    writeFileSync(
      join(directory, 'mcp-host.json'),
      JSON.stringify({
        model: 'scripted:script.json',
        mcpServers: { counter: { command: process.execPath, args: [fixtureServer('counter.mjs')], trust: 'trusted' } },
        permissions: { allow: ['counter__echo'] },
      }),
    );
    const terminal = terminals().open(`cd ${directory} && ${process.execPath} ${cliPath} chat -c mcp-host.json`, {
      env: { MCP_HOST_STATE_DIR: join(directory, 'state'), HOME: directory },
    });
    await terminal.waitFor('/help for commands', STEP);
    terminal.type('Echo it.');
    terminal.keys('Enter');
    let screen = await terminal.waitFor('• item one', STEP);
    expect(screen).toMatch(
      /\[1\] ⚙ counter echo \{"text":"report\\u202efdp\.exe\\u202c d\\u200bone"\} · \d+ ms · ok → reportfdp\.exe d\\u200bone/,
    );
    expect(screen).toContain('Saved as this and that.');
    terminal.type('/expand 1');
    terminal.keys('Enter');
    screen = await terminal.waitFor(/^result, as the model received it:\nreportfdp\.exe d\\u200bone$/m, STEP);
    expect(screen).toContain('"text": "report\\u202efdp.exe\\u202c d\\u200bone"');
    expect(terminal.styledScreen()).not.toMatch(OVERRIDES);
    terminal.keys('C-d');
    await terminal.waitFor('[exited 0]', STEP);
  }, 300_000);
});
