/**
 * `tools call` prints the server's own result, and a server can echo a secret it was given (an API key in its
 * environment): the known secrets are redacted there as everywhere else the host prints, in text and in `--json`.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { bundledFixture } from '../helpers/bundled-fixture.js';
import { runCliInProcess } from '../helpers/in-process-cli.js';
import { repoRoot, writeConfig } from '../helpers/project.js';

const leakyServer = bundledFixture(join(repoRoot, 'test', 'fixtures', 'secrets', 'leaky-server.mjs'));
const SECRET = 'tok-echoed-by-the-server-8812';
let config: string;

beforeAll(async () => {
  config = await writeConfig({
    mcpServers: {
      leaky: {
        command: process.execPath,
        args: [leakyServer],
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the config's own substitution syntax.
        env: { SERVICE_TOKEN: '${env:SERVICE_TOKEN}', LOG_ENV: 'SERVICE_TOKEN' },
        trust: 'trusted',
      },
    },
  });
});

describe('tools call redacts the server result', () => {
  it('in text and in --json', async () => {
    const env = { SERVICE_TOKEN: SECRET };
    const text = await runCliInProcess(['tools', 'call', 'leaky__show_env', '--config', config], {
      env,
      timeoutMs: 60_000,
    });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain('SERVICE_TOKEN is [redacted]');
    expect(text.stdout + text.stderr).not.toContain(SECRET);

    const json = await runCliInProcess(['tools', 'call', 'leaky__show_env', '--json', '--config', config], {
      env,
      timeoutMs: 60_000,
    });
    expect(json.code, json.stderr).toBe(0);
    expect(json.stdout).not.toContain(SECRET);
    const printed = JSON.parse(json.stdout) as { result: { structuredContent: { value: string } } };
    expect(printed.result.structuredContent.value).toBe('SERVICE_TOKEN is [redacted]');
  }, 120_000);
});
