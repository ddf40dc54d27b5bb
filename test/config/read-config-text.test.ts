import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_CONFIG_BYTES, readConfigText } from '../../src/config/read-config-text.js';
import { rejectedConfigError } from '../helpers/config-errors.js';

describe('reading a config file', () => {
  let folder: string;
  beforeEach(() => {
    folder = mkdtempSync(path.join(tmpdir(), 'config-read-'));
  });
  afterEach(() => {
    rmSync(folder, { recursive: true, force: true });
  });

  it('gives the text of a file, and nothing for a file that does not exist', async () => {
    const file = path.join(folder, 'mcp-host.json');
    writeFileSync(file, '{"mcpServers": {"é": {"command": "x"}}}');
    await expect(readConfigText(file)).resolves.toBe('{"mcpServers": {"é": {"command": "x"}}}');
    await expect(readConfigText(path.join(folder, 'missing.json'))).resolves.toBeUndefined();
  });

  it('refuses a file past the bound by its size, without reading it', async () => {
    const file = path.join(folder, 'huge.json');
    writeFileSync(file, '');
    truncateSync(file, MAX_CONFIG_BYTES + 1);
    const error = await rejectedConfigError(() => readConfigText(file));
    expect(error.message).toBe(
      `${file}: expected a config file of at most 16 MiB, found a file of ${MAX_CONFIG_BYTES + 1} bytes.`,
    );
  });

  it('stops reading a device that never ends at the bound', async () => {
    const error = await rejectedConfigError(() => readConfigText('/dev/zero'));
    expect(error.message).toBe(
      `/dev/zero: expected a config file of at most 16 MiB, found more than ${MAX_CONFIG_BYTES} bytes.`,
    );
  });

  it('names a folder as a folder', async () => {
    const error = await rejectedConfigError(() => readConfigText(folder));
    expect(error.code).toBe('config-unreadable');
    expect(error.message).toBe(`${folder}: expected a readable file, found a folder.`);
  });
});
