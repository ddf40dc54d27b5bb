/**
 * `mcp-host trust approve NAME` starts only the server it approves, and `trust revoke` starts none: a second server in
 * the same config, which leaves a marker file whenever it is started, is never started by either.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { toolSetServerEntry } from '../consent/consent-helpers.js';
import { runCliInProcess } from '../helpers/in-process-cli.js';
import { temporaryDirectory, writeConfig } from '../helpers/project.js';

let directory: string;
let config: string;
let marker: string;

beforeAll(async () => {
  directory = await temporaryDirectory('mcp-host-trust-named-');
  marker = join(directory, 'other-started');
  config = await writeConfig({
    mcpServers: {
      fs: toolSetServerEntry([{ name: 'read_file', reply: 'contents' }], { label: 'fs' }),
      // Leaves its marker and exits: started at all, it shows.
      other: {
        command: process.execPath,
        args: ['-e', 'require("node:fs").writeFileSync(process.argv[1], "started")', marker],
      },
    },
  });
});

describe('trust approve and revoke name one server', () => {
  it('approve starts only the named server; revoke starts none', async () => {
    const stateDir = join(directory, 'state');
    const approved = await runCliInProcess(['trust', 'approve', 'fs', '--config', config], {
      cwd: directory,
      stateDir,
    });
    expect(approved.stderr).toBe('');
    expect(approved.stdout).toBe('Approved server fs (was new).\nApproved tool fs__read_file (was new).\n');
    expect(approved.code).toBe(0);

    const revoked = await runCliInProcess(['trust', 'revoke', 'fs', 'read_file', '--config', config], {
      cwd: directory,
      stateDir,
    });
    expect(revoked.stdout).toBe('Revoked fs tool read_file: withheld until you approve it again.\n');
    expect(revoked.code).toBe(0);
    expect(existsSync(marker)).toBe(false);

    // The marker does show a start: listing compares what every server lists now, so it starts the other one too.
    const listed = await runCliInProcess(['trust', '--config', config], { cwd: directory, stateDir });
    expect(listed.stderr).toContain('other');
    expect(existsSync(marker)).toBe(true);
  });
});
