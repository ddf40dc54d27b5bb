/**
 * `tools call` as `run` does it: on a terminal (a real pseudo-terminal, tmux) the person there fills in a server's
 * elicitation form and sees the call's progress; without a terminal it says on stderr what it declined, instead of
 * declining silently.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundledFixture } from '../helpers/bundled-fixture.js';
import { cliPath, fixtureServer, repoRoot, runCli, temporaryDirectory } from '../helpers/project.js';
import { startTmuxServer, type TmuxServer } from '../helpers/tmux-terminal.js';

const STEP = 90_000;
const requestsServer = bundledFixture(
  join(repoRoot, 'test', 'client-features', 'fixtures', 'client-requests-server.mjs'),
);
const formArgs = JSON.stringify({
  params: {
    message: 'Who are you?',
    requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  },
});
let tmux: TmuxServer;
let directory: string;
let stateDir: string;

beforeAll(async () => {
  tmux = startTmuxServer();
  directory = await temporaryDirectory();
  stateDir = await temporaryDirectory('mcp-host-state-');
  writeFileSync(
    join(directory, 'mcp-host.json'),
    JSON.stringify({
      mcpServers: {
        requests: { command: process.execPath, args: [requestsServer], trust: 'trusted' },
        hang: { command: process.execPath, args: [fixtureServer('hang.mjs')] },
      },
      permissions: { allow: ['requests__*'] },
    }),
  );
});

afterAll(() => {
  tmux?.closeAll();
});

function callCommand(args: string): string {
  return `cd ${directory} && MCP_HOST_STATE_DIR=${stateDir} ${process.execPath} ${cliPath} tools call --config mcp-host.json ${args}`;
}

describe('tools call on a terminal', () => {
  it('lets the person fill in an elicitation form', async () => {
    const terminal = tmux.open(callCommand(`requests__elicit --args '${formArgs}'`));
    await terminal.waitFor('Your choice (f/d/c):', STEP);
    terminal.type('f');
    terminal.keys('Enter');
    await terminal.waitFor((screen) => screen.trimEnd().endsWith('>'), STEP);
    terminal.type('Ada');
    terminal.keys('Enter');
    await terminal.waitFor('Send this to server "requests"?', STEP);
    terminal.type('s');
    terminal.keys('Enter');
    const screen = await terminal.waitFor('[exited', STEP);
    expect(screen).toContain('"action":"accept"');
    expect(screen).toContain('"name":"Ada"');
    expect(screen).toContain('[exited 0]');
  }, 200_000);

  it('shows progress', async () => {
    const terminal = tmux.open(callCommand('hang__slow_progress seconds=1 intervalMs=100'));
    const screen = await terminal.waitFor('[exited', STEP);
    expect(screen).toMatch(/mcp-host: hang__slow_progress: \d/);
    expect(screen).toContain('done after');
    expect(screen).toContain('[exited 0]');
  }, 200_000);
});

describe('tools call without a terminal', () => {
  it('says on stderr what it declined', async () => {
    const result = await runCli(
      ['tools', 'call', 'requests__elicit', '--config', 'mcp-host.json', '--args', formArgs],
      {
        cwd: directory,
        stateDir,
        timeoutMs: 90_000,
      },
    );
    expect(result.stderr).toContain(
      'mcp-host: declined the server "requests"\'s request for input "Who are you?": there is no terminal to ask',
    );
    expect(result.stdout).toContain('"action":"decline"');
  }, 120_000);
});
