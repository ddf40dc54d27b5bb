/**
 * What the model sends under secret-named keys stays out of the audit log and the `--trace` output, also for calls the
 * host could not route (an unknown tool, whose raw argument text is recorded) or whose arguments did not parse.
 * Runs the built CLI with a scripted model against a real server.
 */
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { redactArgumentText } from '../../src/text/redact-secrets.js';
import { toolSetServerEntry } from '../consent/consent-helpers.js';
import { auditRecords } from '../helpers/audit-records.js';
import { runCliInProcess } from '../helpers/in-process-cli.js';
import { runCli, temporaryDirectory } from '../helpers/project.js';

const ROUTED_SECRET = 'routed-password-4471';
const UNROUTED_SECRET = 'unrouted-token-9052';
const CONFIG_SECRET = 'config-secret-value-3318';

describe('secret-named argument values', () => {
  it('are found in raw argument text that does not parse', () => {
    const text = '{"path": "/tmp/a", "password": "hunter22", "api_key": "sk-1\\"2", "token": 12345, "note": "ok"';
    const redacted = redactArgumentText(text, []);
    expect(redacted).toBe(
      '{"path": "/tmp/a", "password": "[redacted]", "api_key": "[redacted]", "token": [redacted], "note": "ok"',
    );
    expect(redactArgumentText('{"authorization": "Bearer abc', [])).toBe('{"authorization": "[redacted]"');
    expect(redactArgumentText('user=me&password=pw123', [])).toBe('user=me&password=[redacted]');
    expect(redactArgumentText('{"q": "my known value"}', ['known value'])).toBe('{"q": "my [redacted]"}');
  });

  it('are redacted in the audit log (routed and unroutable calls) and in --trace', async () => {
    const directory = await temporaryDirectory('mcp-host-argument-secrets-');
    const config = join(directory, 'mcp-host.json');
    const script = join(directory, 'script.json');
    const stateDir = join(directory, 'state');
    await writeFile(
      config,
      JSON.stringify({
        mcpServers: {
          fs: toolSetServerEntry([{ name: 'login', reply: 'logged in' }], {
            label: 'fs',
            // biome-ignore lint/suspicious/noTemplateCurlyInString: the config's own substitution syntax.
            env: { SECRET_X: '${env:X}' },
          }),
        },
      }),
    );
    await writeFile(
      script,
      JSON.stringify({
        scenarios: [
          {
            turns: [
              {
                toolCalls: [
                  {
                    id: 'ok1',
                    name: 'fs__login',
                    arguments: { user: 'me', password: ROUTED_SECRET, note: CONFIG_SECRET },
                  },
                  { id: 'bad1', name: 'fs__no_such_tool', arguments: { user: 'me', api_token: UNROUTED_SECRET } },
                ],
              },
              { text: 'done' },
            ],
          },
        ],
      }),
    );
    const result = await runCli(
      ['run', '--yes', '--trace', '--config', config, '--model', `scripted:${script}`, 'log in'],
      {
        cwd: directory,
        stateDir,
        env: { X: CONFIG_SECRET },
        timeoutMs: 60_000,
      },
    );
    expect(result.stdout).toContain('done');
    // The trace shows the calls, with the values hidden.
    expect(result.stderr).toContain('call ok1: fs__login(');
    expect(result.stderr).toContain('call bad1: fs__no_such_tool(');
    expect(result.stderr).toContain('"password": "[redacted]"');
    for (const secret of [ROUTED_SECRET, UNROUTED_SECRET, CONFIG_SECRET]) expect(result.stderr).not.toContain(secret);

    const audit = readFileSync(join(stateDir, 'audit.jsonl'), 'utf8');
    const calls = (await auditRecords(stateDir)).filter((record) => record.type === 'tool-call');
    expect(calls.map((call) => call.callId).sort()).toEqual(['bad1', 'ok1']);
    const unrouted = calls.find((call) => call.callId === 'bad1');
    expect(typeof unrouted?.arguments).toBe('string');
    expect(unrouted?.arguments).toContain('"api_token":"[redacted]"');
    for (const secret of [ROUTED_SECRET, UNROUTED_SECRET, CONFIG_SECRET]) expect(audit).not.toContain(secret);
  }, 120_000);

  it('are redacted in every --trace line, the final answer and the names the model gave included', async () => {
    const directory = await temporaryDirectory('mcp-host-trace-secrets-');
    const config = join(directory, 'mcp-host.json');
    const script = join(directory, 'script.json');
    await writeFile(
      config,
      JSON.stringify({
        mcpServers: {
          // Never started: it is here for the secret its environment names.
          // biome-ignore lint/suspicious/noTemplateCurlyInString: the config's own substitution syntax.
          vault: { command: 'node', args: ['vault.js'], env: { VAULT_KEY: '${env:X}' }, disabled: true },
        },
      }),
    );
    await writeFile(
      script,
      JSON.stringify({
        scenarios: [
          {
            turns: [
              { toolCalls: [{ id: `call-${CONFIG_SECRET}`, name: `vault__open_${CONFIG_SECRET}`, arguments: {} }] },
              { text: `The vault key is ${CONFIG_SECRET}.` },
            ],
          },
        ],
      }),
    );
    const result = await runCliInProcess(
      ['run', '--yes', '--trace', '--config', config, '--model', `scripted:${script}`, 'what is the key?'],
      { cwd: directory, stateDir: join(directory, 'state'), env: { X: CONFIG_SECRET }, timeoutMs: 60_000 },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('── final answer ──');
    expect(result.stderr).toContain('  The vault key is [redacted].');
    expect(result.stderr).toContain('call call-[redacted]: vault__open_[redacted](');
    expect(result.stderr).not.toContain(CONFIG_SECRET);
  });
});
