/**
 * `mcp-host trust` reaches a remote server the way a run does: an OAuth-protected HTTP server is authorized in the
 * browser, its tools are listed and approved, and the token is kept in the state folder for the next command.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TrustReportServer } from '../../src/policy/trust-report.js';
import { waitUntil } from '../helpers/gateway-process.js';
import { type CliResult, runCli, startCli, temporaryDirectory, writeConfig } from '../helpers/project.js';
import { type FakeOAuthServers, startFakeOAuthServers } from '../oauth/fake-oauth-servers.js';

let servers: FakeOAuthServers;
let config: string;
let stateDir: string;

beforeAll(async () => {
  servers = await startFakeOAuthServers();
  config = await writeConfig({ mcpServers: { notes: { type: 'http', url: servers.mcpUrl } } });
  stateDir = await temporaryDirectory('mcp-host-trust-oauth-');
});
afterAll(async () => {
  await servers?.close();
});

/**
 * Runs the CLI with no display, so it shows the authorization URL on stderr instead of opening a browser; the test
 * then follows that URL as the user's browser would.
 */
async function runAuthorizingInBrowser(args: string[]): Promise<CliResult> {
  const cli = startCli(args, { stateDir });
  const shown = () => /open this URL in a browser to continue: (\S+)/.exec(cli.output().stderr)?.[1];
  try {
    await waitUntil(() => shown() !== undefined || cli.child.exitCode !== null, 'the authorization URL', 60_000);
    const url = shown();
    if (url !== undefined) await (await fetch(url)).text();
    return await cli.closed;
  } finally {
    if (cli.child.exitCode === null && cli.child.signalCode === null) cli.child.kill('SIGKILL');
  }
}

describe('mcp-host trust with an OAuth-protected remote server', () => {
  it('authorizes in the browser to list its tools, and approves them with the stored token', async () => {
    const listed = await runAuthorizingInBrowser(['trust', '--json', '--config', config]);
    expect(listed.stderr).toContain('server "notes" needs authorization');
    expect(listed.code).toBe(0);
    const [notes] = JSON.parse(listed.stdout) as TrustReportServer[];
    expect(notes?.error).toBeUndefined();
    expect(notes?.tools.map((tool) => tool.name).sort()).toEqual(['read_notes', 'write_note']);
    expect(servers.requestsTo('/authorize')).toHaveLength(1);

    const approved = await runCli(['trust', 'approve', 'notes', '--config', config], { stateDir, timeoutMs: 60_000 });
    expect(approved.stderr).not.toContain('needs authorization');
    expect(approved.code).toBe(0);
    expect(approved.stdout).toBe(
      'Approved server notes (was new).\nApproved tool notes__read_notes (was new).\nApproved tool notes__write_note (was new).\n',
    );
    // The token the first command was given serves the second: no new authorization.
    expect(servers.requestsTo('/authorize')).toHaveLength(1);
    expect(servers.requestsTo('/token')).toHaveLength(1);
    const bearer = servers.requests.filter((request) => request.server === 'mcp' && request.authorization);
    expect(bearer.length).toBeGreaterThan(0);
  });
});
