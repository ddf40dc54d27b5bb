/**
 * The web UI's door, tested over plain HTTP: loopback only, the API answered only to requests carrying the token
 * from the printed URL (never a cookie, which the browser would send to every port of 127.0.0.1), Host and Origin
 * checked on every request, and a strict CSP on every answer.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trustedCalculatorConfig } from '../helpers/calculator-config.js';
import { runCli } from '../helpers/project.js';
import { type RunningUi, startUi } from '../helpers/web-ui-process.js';

/** fetch() cannot set Host; node:http sends exactly the headers given. */
function send(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const call = request(url, { method: options.method ?? 'GET', headers: options.headers }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    call.on('error', reject);
    call.end(options.body);
  });
}

let ui: RunningUi;

beforeAll(async () => {
  const config = await trustedCalculatorConfig();
  ui = await startUi(['--config', config]);
}, 60_000);

afterAll(async () => {
  await ui?.stop();
});

describe('mcp-host ui security', () => {
  it('serves the page at the printed URL without setting a cookie, and the API only to the token', async () => {
    expect(ui.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{20,}$/);
    const page = await send(ui.url);
    expect(page.status).toBe(200);
    expect(page.body).toContain('<!doctype html>');
    expect(page.body).not.toContain(ui.token);
    expect(page.headers['set-cookie']).toBeUndefined();
    const api = await send(`${ui.base}/api/servers`, { headers: { authorization: `Bearer ${ui.token}` } });
    expect(api.status).toBe(200);
    expect(JSON.parse(api.body)[0].name).toBe('calculator');
  });

  it('refuses an API request without the token, with a wrong one, or with it as a cookie', async () => {
    for (const headers of <Array<Record<string, string>>>[
      {},
      { authorization: 'Bearer not-the-token' },
      { cookie: `mcp_host_ui=${ui.token}` },
      { authorization: `Basic ${ui.token}` },
    ]) {
      const api = await send(`${ui.base}/api/servers`, { headers });
      expect(api.status).toBe(401);
      expect(JSON.parse(api.body).error).toContain('token');
    }
    const events = await send(`${ui.base}/api/events?token=guess`);
    expect(events.status).toBe(401);
    // The token in the address opens the event stream alone, which EventSource cannot send it otherwise.
    const inAddress = await send(`${ui.base}/api/servers?token=${ui.token}`);
    expect(inAddress.status).toBe(401);
    // A %-escape in the path reaches the route it names, and its check with it.
    const escaped = await send(`${ui.base}/%61pi/servers`);
    expect(escaped.status).toBe(401);
  });

  it('refuses a wrong Host (DNS rebinding) even with the token', async () => {
    const authorization = `Bearer ${ui.token}`;
    const answer = await send(`${ui.base}/api/servers`, { headers: { authorization, host: 'attacker.example:80' } });
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body).error).toContain('attacker.example');
    const right = await send(`${ui.base}/api/servers`, { headers: { authorization } });
    expect(right.status).toBe(200);
    expect(JSON.parse(right.body)[0].name).toBe('calculator');
  });

  it('refuses a foreign Origin, and a change without any Origin (CSRF)', async () => {
    const body = JSON.stringify({ name: 'calculator__add_numbers', arguments: { a: 2, b: 3 } });
    const json = { authorization: `Bearer ${ui.token}`, 'content-type': 'application/json' };
    const foreign = await send(`${ui.base}/api/tools/call`, {
      method: 'POST',
      headers: { ...json, origin: 'http://attacker.example' },
      body,
    });
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.body).error).toContain('attacker.example');
    const none = await send(`${ui.base}/api/tools/call`, { method: 'POST', headers: json, body });
    expect(none.status).toBe(403);
    const own = await send(`${ui.base}/api/tools/call`, {
      method: 'POST',
      headers: { ...json, origin: ui.base },
      body,
    });
    expect(own.status).toBe(200);
    expect(JSON.parse(own.body).content).toEqual([{ type: 'text', text: '5' }]);
  });

  it('serves the app with a strict Content-Security-Policy and no inline script', async () => {
    const page = await send(`${ui.base}/`);
    expect(page.status).toBe(200);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    // The one origin named is the sandbox that serves MCP Apps views: loopback, another port than the UI's.
    const frameSrc = /frame-src (\S+);/.exec(csp)?.[1];
    expect(frameSrc).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(new URL(frameSrc!).origin).not.toBe(ui.base);
    expect(csp.replace(`frame-src ${frameSrc}`, '')).not.toMatch(/https?:/);
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    // Every script is a file of the app's own; none is inline or from elsewhere.
    const scripts = [...page.body.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, content] of scripts) {
      expect(attributes).toMatch(/src="\/assets\//);
      expect(content?.trim()).toBe('');
    }
  });

  it('will not listen on an address other than loopback', async () => {
    const result = await runCli(['ui', '--host', '0.0.0.0'], { timeoutMs: 60_000 });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('mcp-host: --host must be a loopback address');
    expect(result.stdout).toBe('');
  }, 60_000);
});
