/**
 * Secrets never leave the host in text it builds from a server's output. A real server that prints its whole
 * environment and command line to stderr (at start, then again as it crashes mid-call), a remote server whose error
 * body echoes the request headers, and a server that logs an environment value: the known secrets (values taken from
 * the environment, header values, literal values of secret-named env keys and flags) are redacted before the text
 * reaches the model, the terminal, `servers --json` or the audit log. The run that crashes is the built CLI's own
 * process; the other commands run the same program in the test worker.
 */
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bundledFixture } from '../helpers/bundled-fixture.js';
import { runCliInProcess } from '../helpers/in-process-cli.js';
import { repoRoot, runCli, temporaryDirectory, writeConfig } from '../helpers/project.js';

const leakyServer = bundledFixture(join(repoRoot, 'test', 'fixtures', 'secrets', 'leaky-server.mjs'));
const ENV_SECRET = 'tok-from-the-environment-5521';
const LITERAL_ENV_SECRET = 'literal-api-key-7734';
const FLAG_SECRET = 'sk-given-as-a-flag-9910';
const SECRETS = [ENV_SECRET, LITERAL_ENV_SECRET, FLAG_SECRET];
/** Each CLI run starts a server (the real-process run, Node too); generous for a busy machine. */
const TIMEOUT_MS = 120_000;

function leakyEntry(env: Record<string, string> = {}): Record<string, unknown> {
  return {
    command: process.execPath,
    args: [leakyServer, '--api-key', FLAG_SECRET],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the config's own substitution syntax.
    env: { SERVICE_TOKEN: '${env:SERVICE_TOKEN}', PLAIN_API_KEY: LITERAL_ENV_SECRET, ...env },
    trust: 'trusted',
  };
}

function expectNoSecret(text: string, where: string): void {
  for (const secret of SECRETS) expect(text, `${where} holds ${secret}`).not.toContain(secret);
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

describe('text built from server output is redacted', () => {
  it(
    'a server that prints its env and args and crashes mid-call: model, terminal and audit see [redacted]',
    async () => {
      const directory = await temporaryDirectory('mcp-host-secrets-');
      const config = join(directory, 'mcp-host.json');
      const script = join(directory, 'script.json');
      await writeFile(config, JSON.stringify({ mcpServers: { leaky: leakyEntry() } }));
      await writeFile(
        script,
        JSON.stringify({
          scenarios: [
            {
              turns: [
                { toolCalls: [{ id: 'c1', name: 'leaky__crash' }] },
                { text: 'The tool said: {{lastToolResult}}' },
              ],
            },
          ],
        }),
      );
      const stateDir = join(directory, 'state');
      // A real process: the terminal here is the process's own stderr.
      const result = await runCli(
        ['run', '--config', config, '--yes', '--json', '--model', `scripted:${script}`, 'crash it'],
        {
          cwd: directory,
          stateDir,
          env: { SERVICE_TOKEN: ENV_SECRET },
          timeoutMs: 60_000,
        },
      );
      expect(result.stderr).not.toContain('the run failed');
      const transcript = JSON.parse(result.stdout) as { text: string; toolCalls: Array<{ outcome: string }> };
      // The crash and its stderr tail reach the model, without the values.
      expect(transcript.toolCalls[0]?.outcome).toBe('crashed');
      expect(transcript.text).toContain('exited with code 3');
      expect(transcript.text).toContain('env SERVICE_TOKEN=[redacted]');
      expect(transcript.text).toContain('env PLAIN_API_KEY=[redacted]');
      expect(transcript.text).toContain('args --api-key [redacted]');
      expectNoSecret(result.stdout, 'the transcript (what the model was sent)');
      expect(result.stderr).toContain('env SERVICE_TOKEN=[redacted]');
      expectNoSecret(result.stderr, 'stderr');
      const audit = readFileSync(join(stateDir, 'audit.jsonl'), 'utf8');
      expect(audit).toContain('"reason":"crashed"');
      expectNoSecret(audit, 'the audit log');
    },
    TIMEOUT_MS,
  );

  it(
    'a server that prints its env and fails to start: servers --json lastError and stderrTail are redacted',
    async () => {
      const config = await writeConfig({ mcpServers: { leaky: leakyEntry({ FAIL_AT_START: '1' }) } });
      const result = await runCliInProcess(['servers', '--json', '--config', config], {
        env: { SERVICE_TOKEN: ENV_SECRET },
        timeoutMs: 60_000,
      });
      const [status] = JSON.parse(result.stdout) as Array<{ state: string; lastError?: string }>;
      expect(status?.state).toBe('failed');
      expect(status?.lastError).toContain('fatal: giving up');
      expect(status?.lastError).toContain('env SERVICE_TOKEN=[redacted]');
      expectNoSecret(result.stdout, 'servers --json');
      expectNoSecret(result.stderr, 'stderr');

      const text = await runCliInProcess(['servers', '--config', config], { env: { SERVICE_TOKEN: ENV_SECRET } });
      expect(text.stdout).toContain('env PLAIN_API_KEY=[redacted]');
      expectNoSecret(text.stdout + text.stderr, 'servers');
    },
    TIMEOUT_MS,
  );

  it(
    'a running server: the stderr tail in servers --json and its log messages are redacted',
    async () => {
      const directory = await temporaryDirectory('mcp-host-secrets-');
      const config = join(directory, 'mcp-host.json');
      await writeFile(config, JSON.stringify({ mcpServers: { leaky: leakyEntry({ LOG_ENV: 'PLAIN_API_KEY' }) } }));
      const status = await runCliInProcess(['servers', '--json', '--config', config], {
        env: { SERVICE_TOKEN: ENV_SECRET },
      });
      const [server] = JSON.parse(status.stdout) as Array<{ state: string; stderrTail?: string }>;
      expect(server?.state).toBe('connected');
      expect(server?.stderrTail).toContain('env SERVICE_TOKEN=[redacted]');
      expectNoSecret(status.stdout, 'servers --json');

      const stateDir = join(directory, 'state');
      const call = await runCliInProcess(['tools', 'call', 'leaky__log_env', '--config', config], {
        env: { SERVICE_TOKEN: ENV_SECRET },
        stateDir,
      });
      expect(call.stdout).toContain('logged');
      const log = readFileSync(join(stateDir, 'logs', 'leaky.log'), 'utf8');
      expect(log).toContain('PLAIN_API_KEY is [redacted]');
      expectNoSecret(log, "the server's log file");
    },
    TIMEOUT_MS,
  );

  it(
    "a remote server's error body that echoes the request headers does not print the bearer token",
    async () => {
      const token = 'bearer-token-from-env-6643';
      const literal = 'literal-header-key-1208';
      const server = createServer((request, response) => {
        // Like a misconfigured proxy: the error page lists every header it received.
        response.writeHead(500, { 'content-type': 'text/plain' });
        response.end(`upstream failed; request headers: ${JSON.stringify(request.headers)}`);
      });
      servers.push(server);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as AddressInfo;
      const config = await writeConfig({
        mcpServers: {
          remote: {
            url: `http://127.0.0.1:${port}/mcp`,
            // biome-ignore lint/suspicious/noTemplateCurlyInString: the config's own substitution syntax.
            headers: { Authorization: 'Bearer ${env:REMOTE_TOKEN}', 'X-Api-Key': literal },
            oauth: false,
          },
        },
      });
      const result = await runCliInProcess(['servers', '--json', '--config', config], { env: { REMOTE_TOKEN: token } });
      const [status] = JSON.parse(result.stdout) as Array<{ state: string; lastError?: string }>;
      expect(status?.state).toBe('failed');
      expect(status?.lastError).toContain('request headers');
      expect(status?.lastError).toContain('"authorization":"[redacted]"');
      expect(status?.lastError).toContain('"x-api-key":"[redacted]"');
      for (const text of [result.stdout, result.stderr]) {
        expect(text).not.toContain(token);
        expect(text).not.toContain(literal);
      }
    },
    TIMEOUT_MS,
  );
});
