/** What a user is shown about a URL a server wants opened, and how the host opens one (never through a shell). */
import { describe, expect, it } from 'vitest';
import { describeUrl, highlightHostname } from '../../src/client-features/describe-url.js';
import { browserCommand } from '../../src/client-features/open-url.js';

describe('describeUrl', () => {
  it('accepts an https URL without warnings and names its domain', () => {
    const described = describeUrl('https://example.com/path?next=https://other.example');
    expect(described).toMatchObject({ hostname: 'example.com', openable: true, warnings: [] });
    expect(described.unicodeHostname).toBeUndefined();
  });

  it('warns about a Punycode domain and shows what it stands for', () => {
    // "аpple.com" with a Cyrillic "а": the URL parser turns it into Punycode.
    const described = describeUrl('https://\u0430pple.com/login');
    expect(described.hostname).toBe('xn--pple-43d.com');
    expect(described.unicodeHostname).toBe('\u0430pple.com');
    expect(described.warnings.join(' ')).toMatch(/Punycode \(xn--pple-43d\.com\)/);
  });

  it('warns about a user name before @, an IP address and plain http', () => {
    const described = describeUrl('http://accounts.example.com@10.0.0.1/reset');
    expect(described.hostname).toBe('10.0.0.1');
    const warnings = described.warnings.join('\n');
    expect(warnings).toMatch(/user name before "@".*10\.0\.0\.1.*accounts\.example\.com/);
    expect(warnings).toMatch(/IP address/);
    expect(warnings).toMatch(/not https/);
    expect(described.openable).toBe(true);
  });

  it('refuses to open anything but http and https, and text that is not a URL', () => {
    expect(describeUrl('file:///etc/passwd')).toMatchObject({ openable: false });
    expect(describeUrl('javascript:alert(1)')).toMatchObject({ openable: false });
    const invalid = describeUrl('not a url');
    expect(invalid.openable).toBe(false);
    expect(invalid.href).toBeUndefined();
  });

  it('marks the real host, not a look-alike in the user name or path', () => {
    const described = describeUrl('https://example.com@evil.test/example.com');
    expect(highlightHostname(described, (host) => `<${host}>`)).toBe('https://example.com@<evil.test>/example.com');
  });
});

describe('browserCommand', () => {
  it('passes the URL as one argument to the platform opener, with no shell', () => {
    const url = 'https://example.com/a?b=1&c=$(touch /tmp/x);d';
    expect(browserCommand(url, 'linux')).toEqual({ command: 'xdg-open', args: [url] });
    expect(browserCommand(url, 'darwin')).toEqual({ command: 'open', args: [url] });
    expect(browserCommand(url, 'win32')).toEqual({ command: 'rundll32', args: ['url.dll,FileProtocolHandler', url] });
  });
});
