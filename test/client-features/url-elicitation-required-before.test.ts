/**
 * A server that answers a tool call with -32042 (URL elicitation required) gets the URL-mode consent flow: the
 * user is shown the URL and its domain; on approval the URL is opened and the call sent once more; a denial
 * gives the model a clear result instead of a raw protocol error. Against a real server over stdio whose
 * sign-in page is a real HTTP endpoint on 127.0.0.1; the test's "browser" visits the page it is given.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Host } from '../../src/host/create-host.js';
import { closeHosts, openFaultHost, resultText, waitUntil } from '../faults/fault-helpers.js';
import { createTurnProvider, lastToolResults, toolCall } from '../faults/turn-provider.js';
import { hostConfig, stdioServer } from '../helpers/configs.js';
import { runCli, temporaryDirectory } from '../helpers/project.js';
import { createRecordingApprover } from './helpers.js';

const server = join(import.meta.dirname, 'fixtures', 'url-required-server.mjs');
const approver = createRecordingApprover();
const opened: string[] = [];
let host: Host;

const provider = createTurnProvider([
  () => [toolCall('who', 'login__whoami', {})],
  (request) => [{ type: 'text', text: `model saw: ${resultText(lastToolResults(request)[0]!)}` }],
]);

beforeAll(async () => {
  host = await openFaultHost(
    hostConfig([stdioServer('login', [server], { trust: 'trusted' })], {
      permissions: { allow: ['login__*'], ask: [], deny: [] },
    }),
    {
      provider,
      clientRequestApprover: approver,
      clientFeatures: {
        // The browser: visits the page it is asked to open.
        openUrl: async (href) => {
          opened.push(href);
          await (await fetch(href)).text();
        },
      },
    },
  );
});

afterAll(closeHosts);

const stderr = () => host.connection('login')?.status().stderrTail ?? '';

describe('URL elicitation required (-32042)', { timeout: 60_000 }, () => {
  it('declined: nothing is opened and the model is told plainly, with the domain', async () => {
    approver.answers.url = 'decline';
    const result = await host.run('who am I?');
    expect(result.stopReason).toBe('end');
    expect(approver.urls).toHaveLength(1);
    const asked = approver.urls[0]!;
    expect(asked.serverName).toBe('login');
    expect(asked.url.hostname).toBe('127.0.0.1');
    expect(asked.message).toContain('To run the tool login__whoami: Sign in to the example service');
    expect(opened).toEqual([]);

    const shown = resultText(lastToolResults(provider.requests[1]!)[0]!);
    expect(shown).toContain('The tool login__whoami was not run');
    expect(shown).toContain('needs the user to open a page at 127.0.0.1');
    expect(shown).toContain('the user declined');
    expect(shown).not.toContain('-32042:');
    expect(lastToolResults(provider.requests[1]!)[0]!.isError).toBe(true);
    await waitUntil(() => stderr().includes('whoami 1'), 'the server to log the call');
    expect(stderr()).not.toContain('whoami 2');
  });

  it('approved: the page is opened and the call is sent again and answered', async () => {
    approver.answers.url = 'accept';
    const call = await host.callTool('login__whoami', {});
    expect(call.outcome).toBe('ok');
    expect(resultText(call.result)).toBe('signed in as ada');
    expect(approver.urls).toHaveLength(2);
    expect(opened).toHaveLength(1);
    expect(new URL(opened[0]!).hostname).toBe('127.0.0.1');
    await waitUntil(() => stderr().includes('whoami 3'), 'the server to log the second call');
    expect(stderr()).toMatch(/visited sign-in-2\n[\s\S]*whoami 3/);
  });

  it('tools call without a terminal: declined with a clear line naming the domain, no raw error', async () => {
    const directory = await temporaryDirectory();
    const config = join(directory, 'mcp-host.json');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: { login: { command: process.execPath, args: [server] } },
        permissions: { allow: ['login__*'] },
      }),
    );
    const result = await runCli(['tools', 'call', 'login__whoami', '--config', config], {
      cwd: directory,
      timeoutMs: 30_000,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('declined the server "login"\'s request to open a page on 127.0.0.1');
    expect(result.stderr).toContain('The tool login__whoami was not run');
    expect(result.stderr).not.toContain('URL elicitation required, -32042');
  });
});
