import { describe, expect, it } from 'vitest';
import { fileNameOf, filesOfRequest, MAX_DOWNLOAD_BYTES } from '../../web/src/app-views/view-downloads.js';

const embedded = (uri: string, fields: Record<string, unknown>) => ({ type: 'resource', resource: { uri, ...fields } });

describe("a view's download request", () => {
  it('takes embedded text and base64 under a plain file name', () => {
    const files = filesOfRequest([
      embedded('file:///a/b/report.txt', { mimeType: 'text/plain', text: 'héllo' }),
      embedded('ui://x/data.bin', { blob: Buffer.from([1, 2, 3]).toString('base64') }),
    ]);
    expect(files).toEqual([
      { name: 'report.txt', mimeType: 'text/plain', bytes: new TextEncoder().encode('héllo') },
      { name: 'data.bin', mimeType: 'unknown type', bytes: new Uint8Array([1, 2, 3]) },
    ]);
    expect(fileNameOf('file:///../..\\evil name<script>.html?x=1')).toBe('evil_name_script_.html');
    expect(fileNameOf('file:///.bashrc')).toBe('bashrc');
    expect(fileNameOf('ui://')).toBe('download');
  });

  it('refuses links, too many files, too many bytes and bad base64', () => {
    expect(filesOfRequest([{ type: 'resource_link', uri: 'https://example.com/x', name: 'x' }])).toMatch(/not fetched/);
    expect(filesOfRequest(Array.from({ length: 11 }, () => embedded('file:///a', { text: 'a' })))).toMatch(
      /more than 10 files/,
    );
    const big = 'a'.repeat(MAX_DOWNLOAD_BYTES / 2 + 1);
    expect(
      filesOfRequest([embedded('file:///a', { blob: btoa(big) }), embedded('file:///b', { blob: btoa(big) })]),
    ).toMatch(/more than \d+ bytes/);
    expect(filesOfRequest([embedded('file:///a', { blob: '@@not base64@@' })])).toMatch(/not valid base64/);
    expect(filesOfRequest([])).toMatch(/names no file/);
  });
});
