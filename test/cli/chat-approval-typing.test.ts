/**
 * Approvals in `mcp-host chat` in a real pseudo-terminal (tmux), against the calculator example with an ask rule:
 * an approval is answered only by a line typed while it is shown. A second answer typed in the same breath as the
 * first is not kept for a question that has not been asked yet.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliPath, exampleServer, temporaryDirectory } from '../helpers/project.js';
import { useTmuxServer } from '../helpers/tmux-terminal.js';

const STEP = 90_000;
const terminals = useTmuxServer();

describe('mcp-host chat approvals typed at the terminal', () => {
  it('never lets a line typed during one approval answer the next one', async () => {
    const directory = await temporaryDirectory('mcp-host-chat-approval-');
    writeFileSync(
      join(directory, 'script.json'),
      JSON.stringify({
        scenarios: [
          {
            match: 'Divide',
            turns: [
              { toolCalls: [{ name: 'calculator__divide', arguments: { a: 12, b: 4 } }] },
              { text: 'First quotient: {{lastToolResult}}.' },
              { toolCalls: [{ name: 'calculator__divide', arguments: { a: 12, b: 3 } }] },
              { text: 'Second call: {{lastToolResult}}.' },
            ],
          },
        ],
      }),
    );
    writeFileSync(
      join(directory, 'mcp-host.json'),
      JSON.stringify({
        model: 'scripted:script.json',
        mcpServers: {
          calculator: { command: process.execPath, args: [exampleServer('calculator')], trust: 'trusted' },
        },
        permissions: { ask: ['calculator__divide'] },
      }),
    );
    const terminal = terminals().open(`cd ${directory} && ${process.execPath} ${cliPath} chat -c mcp-host.json`, {
      env: { MCP_HOST_STATE_DIR: join(directory, 'state'), HOME: directory },
    });
    await terminal.waitFor('/help for commands', STEP);

    terminal.type('Divide 12 by 4.');
    terminal.keys('Enter');
    await terminal.waitFor('Your choice (o/d):', STEP);
    // Two answers in one go (a paste, a double tap): the first answers this approval.
    terminal.keys('o', 'Enter', 'o', 'Enter');
    await terminal.waitFor('First quotient: 3.', STEP);

    // The second line is a message of its own, not an answer kept for later: its turn asks again and waits.
    const asked = (screen: string) => screen.split('Your choice (o/d):').length - 1;
    let screen = await terminal.waitFor((text) => asked(text) === 2, STEP);
    expect(screen).toContain('(kept: sent when this turn ends)');
    expect(screen).not.toMatch(/\[2\] ⚙/);
    terminal.type('d');
    terminal.keys('Enter');
    screen = await terminal.waitFor(/\[2\] ⚙ calculator__divide \{"a":12,"b":3\} .*· denied/, STEP);
    expect(screen).not.toMatch(/\[2\] ⚙ calculator \S*divide .*· ok/);
    terminal.keys('C-d');
    await terminal.waitFor('[exited 0]', STEP);
  }, 300_000);
});
