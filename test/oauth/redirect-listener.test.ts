/**
 * The loopback redirect listener and the rules for authorization URLs: the listener only accepts the redirect of
 * its own flow, reports a refusal, gives up after its timeout; only https (or local http) URLs are ever opened.
 */
import { describe, expect, it } from 'vitest';
import { assertOpenableAuthorizationUrl, isHeadless } from '../../src/connections/oauth/authorization-url.js';
import { startRedirectListener } from '../../src/connections/oauth/redirect-listener.js';

async function listener(timeoutMs = 5_000) {
  return startRedirectListener({ port: 0, expectedState: 'state-123', timeoutMs, serverName: 'notes' });
}

describe('the redirect listener', () => {
  it('ignores a callback with another state, then accepts the one with its own', async () => {
    const redirect = await listener();
    try {
      expect(redirect.redirectUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
      const forged = await fetch(`${redirect.redirectUrl}?code=evil&state=other`);
      expect(forged.status).toBe(400);
      expect(await forged.text()).toContain('does not belong to the current request');
      const genuine = await fetch(`${redirect.redirectUrl}?code=good&state=state-123&iss=https%3A%2F%2Fauth`);
      expect(genuine.status).toBe(200);
      expect(await genuine.text()).toContain('notes is authorized');
      const params = await redirect.callback;
      expect(params.get('code')).toBe('good');
      expect(params.get('iss')).toBe('https://auth');
    } finally {
      await redirect.close();
    }
  });

  it("reports the authorization server's refusal, escaping it in the page", async () => {
    const redirect = await listener();
    try {
      const response = await fetch(`${redirect.redirectUrl}?error=access_denied%3Cscript%3E&state=state-123`);
      expect(await response.text()).not.toContain('<script>');
      await expect(redirect.callback).rejects.toThrow(/the authorization server refused: access_denied<script>/);
    } finally {
      await redirect.close();
    }
  });

  it('gives up after its timeout, and answers 404 off its path', async () => {
    const redirect = await listener(200);
    try {
      expect((await fetch(redirect.redirectUrl.replace('/callback', '/other'))).status).toBe(404);
      await expect(redirect.callback).rejects.toThrow(/not completed within 0 s; connect again/);
    } finally {
      await redirect.close();
    }
  });

  it('names the port and the setting when the port is taken', async () => {
    const first = await listener();
    try {
      const port = Number(new URL(first.redirectUrl).port);
      await expect(
        startRedirectListener({ port, expectedState: 'x', timeoutMs: 1_000, serverName: 'notes' }),
      ).rejects.toThrow(new RegExp(`port ${port} on 127\\.0\\.0\\.1 is in use.*oauth\\.redirectPort`));
    } finally {
      await first.close();
    }
  });
});

describe('authorization URLs', () => {
  it('opens https, and http only on this machine', () => {
    expect(() => assertOpenableAuthorizationUrl(new URL('https://auth.example.test/authorize?x=1'))).not.toThrow();
    expect(() => assertOpenableAuthorizationUrl(new URL('http://127.0.0.1:4000/authorize'))).not.toThrow();
    expect(() => assertOpenableAuthorizationUrl(new URL('http://localhost:4000/authorize'))).not.toThrow();
    expect(() => assertOpenableAuthorizationUrl(new URL('http://auth.example.test/authorize'))).toThrow(
      /refused to open the authorization URL http:\/\/auth\.example\.test\/authorize/,
    );
    expect(() => assertOpenableAuthorizationUrl(new URL('file:///etc/passwd'))).toThrow(/only https URLs/);
    expect(() => assertOpenableAuthorizationUrl(new URL('javascript:alert(1)'))).toThrow(/only https URLs/);
  });

  it('knows when there is no browser to open', () => {
    expect(isHeadless({}, 'linux')).toBe(true);
    expect(isHeadless({ DISPLAY: ':0' }, 'linux')).toBe(false);
    expect(isHeadless({ WAYLAND_DISPLAY: 'wayland-0' }, 'linux')).toBe(false);
    expect(isHeadless({}, 'darwin')).toBe(false);
    expect(isHeadless({ SSH_CONNECTION: '10.0.0.1 5000 10.0.0.2 22' }, 'darwin')).toBe(true);
  });
});
