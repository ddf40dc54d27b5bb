/**
 * `mcp-host ui --open` where the system's opener fails (no browser set up: xdg-open exits non-zero) says so and to
 * open the address it printed: the opener ran, so nothing was said, and no browser came.
 */
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type StartedCli, startCli, writeConfig } from '../helpers/project.js';
import { waitUntil } from '../helpers/wait-until.js';

const started: StartedCli[] = [];

afterEach(() => {
  for (const cli of started.splice(0)) if (cli.child.exitCode === null) cli.child.kill('SIGKILL');
});

describe.runIf(process.platform === 'linux')('ui --open with no browser to open', () => {
  it('says the opener failed, with its exit code, and to open the address printed', async () => {
    const bin = mkdtempSync(join(tmpdir(), 'mcp-host-no-browser-'));
    const opener = join(bin, 'xdg-open');
    writeFileSync(opener, '#!/bin/sh\necho "xdg-open: no method available for opening $1" >&2\nexit 3\n');
    chmodSync(opener, 0o755);
    const config = await writeConfig({ mcpServers: {} });
    const cli = startCli(['ui', '--open', '--config', config], { env: { PATH: `${bin}:${process.env.PATH ?? ''}` } });
    started.push(cli);
    const said = 'mcp-host: could not open a browser (xdg-open exited with code 3); open the address above\n';
    await waitUntil(
      () => cli.output().stderr.includes(said) || cli.child.exitCode !== null,
      'the opener to fail',
      60_000,
    );
    expect(cli.output().stderr).toContain(said);
    cli.child.kill('SIGINT');
    expect((await cli.closed).code).toBe(130);
  }, 120_000);
});
