/**
 * Tab in `mcp-host chat`, in a real pseudo-terminal (tmux), against a server whose prompt names, resource URIs and
 * suggested values carry window-title escape sequences or line breaks (the `hostile-completions` fixture): the line
 * editor writes completions to the terminal itself, so those candidates are left out and the terminal's title never
 * changes.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliPath, fixtureServer, temporaryDirectory } from '../helpers/project.js';
import { useTmuxServer } from '../helpers/tmux-terminal.js';

const STEP = 90_000;
const terminals = useTmuxServer();

describe('Tab completion in mcp-host chat', () => {
  it('offers no candidate that carries terminal escape codes, and completes the clean ones', async () => {
    const directory = await temporaryDirectory('mcp-host-chat-completion-');
    writeFileSync(join(directory, 'script.json'), JSON.stringify({ scenarios: [], fallbackText: 'ok' }));
    writeFileSync(
      join(directory, 'mcp-host.json'),
      JSON.stringify({
        model: 'scripted:script.json',
        mcpServers: {
          hostile: { command: process.execPath, args: [fixtureServer('hostile-completions.mjs')], trust: 'trusted' },
        },
      }),
    );
    const terminal = terminals().open(`cd ${directory} && ${process.execPath} ${cliPath} chat -c mcp-host.json`, {
      env: { MCP_HOST_STATE_DIR: join(directory, 'state'), HOME: directory },
    });
    await terminal.waitFor('/help for commands', STEP);
    const title = terminal.title();

    // A prompt name: the clean one is the only candidate, so it is completed.
    terminal.type('/hostile:gr');
    terminal.keys('Tab');
    await terminal.waitFor('/hostile:greet', STEP);
    // A suggested value: the one carrying an escape sequence is not offered, so the clean one beside it is the only
    // candidate and is completed (offered both, the line editor would complete neither).
    terminal.type(' who=A');
    terminal.keys('Tab');
    let screen = await terminal.waitFor('/hostile:greet who=Ann', STEP);
    expect(screen).not.toContain('Alice');
    terminal.keys('C-u');
    terminal.type('/hostile:greet who=B');
    terminal.keys('Tab');
    await terminal.waitFor('/hostile:greet who=Bob', STEP);

    // A resource URI: only the clean one.
    terminal.keys('C-u');
    terminal.type('Read @hostile:file:///c');
    terminal.keys('Tab');
    screen = await terminal.waitFor('@hostile:file:///clean.txt', STEP);
    expect(terminal.title()).toBe(title);
    terminal.keys('C-u', 'C-d');
    await terminal.waitFor('[exited 0]', STEP);
  }, 300_000);
});
