/**
 * After the user agrees to open the URL a -32042 error asked for, the host waits for the server's
 * `notifications/elicitation/complete` (saying so) before sending the call again: the page is done only when the
 * user has finished with it, not when the browser opens. Here the "browser" only visits the page later.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Host } from '../../src/host/create-host.js';
import { closeHosts, openFaultHost, resultText, waitUntil } from '../faults/fault-helpers.js';
import { hostConfig, stdioServer } from '../helpers/configs.js';
import { createRecordingApprover } from './helpers.js';

const server = join(import.meta.dirname, 'fixtures', 'url-required-server.mjs');
const approver = createRecordingApprover();
const opened: string[] = [];
const diagnostics: string[] = [];
let host: Host;

beforeAll(async () => {
  approver.answers.url = 'accept';
  host = await openFaultHost(
    hostConfig([stdioServer('login', [server], { trust: 'trusted' })], {
      permissions: { allow: ['login__*'], ask: [], deny: [] },
    }),
    {
      clientRequestApprover: approver,
      onDiagnostic: (message) => diagnostics.push(message),
      clientFeatures: {
        openUrl: async (href) => {
          opened.push(href);
        },
      },
    },
  );
});

afterAll(closeHosts);

describe('URL elicitation required (-32042), finished later', { timeout: 60_000 }, () => {
  it('sends the call again only once the server says the page is done', async () => {
    const call = host.callTool('login__whoami', {});
    await waitUntil(() => diagnostics.some((line) => line.includes('waiting up to')), 'the host to say it waits');
    expect(diagnostics.find((line) => line.includes('waiting up to'))).toContain('notifications/elicitation/complete');
    expect(host.connection('login')?.status().stderrTail ?? '').not.toContain('whoami 2');
    // The user signs in on the page now.
    await (await fetch(opened[0]!)).text();
    const done = await call;
    expect(done.outcome).toBe('ok');
    expect(resultText(done.result)).toBe('signed in as ada');
  });
});
