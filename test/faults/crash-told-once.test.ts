/**
 * A server that dies during a call made from the command line: the user is told once how it went (the server named,
 * its exit code, its stderr tail) and then how the call ended, by tools call, connect, chat and run alike. The model,
 * which sees no such report, still gets all of it in the call's result. A library user who passes no `onDiagnostic`
 * hears no report, so the warning of a call sent again says it, as it does where the warnings go elsewhere than the
 * report (`warningsSayServerExits`).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../../src/host/create-host.js';
import { hostConfig, stdioServer } from '../helpers/configs.js';
import { runCliInProcess } from '../helpers/in-process-cli.js';
import { fixtureServer, temporaryDirectory } from '../helpers/project.js';

const HOW = 'server "crashy" exited with code 3';
const TAIL = 'exiting with code 3 in the middle of a call';
const CLOSING_LINE = 'mcp-host: the call failed: the connection to server "crashy" ended\n';
const TIMEOUT = { timeoutMs: 60_000 };
const ONCE_TAIL = 'exiting once with code 5 in the middle of a call';
const RETRY_LINE =
  'mcp-host: crashy__read_once_exits lost its server; trying once more, as the tool is marked safe to retry\n';

let directory: string;

beforeAll(async () => {
  directory = await temporaryDirectory('mcp-host-crash-told-');
  await writeFile(
    join(directory, 'script.json'),
    JSON.stringify({
      scenarios: [
        {
          match: 'read',
          turns: [
            { toolCalls: [{ name: 'crashy__read_once_exits', arguments: {} }] },
            { text: 'The tool said: {{lastToolResult}}' },
          ],
        },
        {
          match: 'crash',
          turns: [
            { toolCalls: [{ name: 'crashy__exit_mid_call', arguments: { code: 3 } }] },
            { text: 'The tool said: {{lastToolResult}}' },
          ],
        },
      ],
    }),
  );
  await writeFile(
    join(directory, 'mcp-host.json'),
    JSON.stringify({
      model: 'scripted:script.json',
      permissions: { allow: ['crashy__*'] },
      mcpServers: { crashy: { command: process.execPath, args: [fixtureServer('crash-mid-call.mjs')] } },
    }),
  );
  // Trusted, so its read-only and idempotent tool is called once more after the crash; one file each, as the
  // server exits only while its marker file is not there.
  for (const name of ['trusted', 'trusted-call']) {
    await writeFile(
      join(directory, `${name}.json`),
      JSON.stringify({
        model: 'scripted:script.json',
        permissions: { allow: ['crashy__*'] },
        mcpServers: {
          crashy: {
            command: process.execPath,
            args: [fixtureServer('crash-mid-call.mjs')],
            env: { EXITED_ONCE_FILE: join(directory, `${name}-exited-once`) },
            trust: 'trusted',
          },
        },
      }),
    );
  }
});

function timesIn(text: string, part: string): number {
  return text.split(part).length - 1;
}

/** What the user sees of the crash, whichever stream it went to. */
function expectToldOnce(result: { stdout: string; stderr: string }): void {
  const seen = result.stdout + result.stderr;
  expect(timesIn(seen, HOW), seen).toBe(1);
  expect(timesIn(seen, TAIL), seen).toBe(1);
  expect(result.stderr).toContain(`mcp-host: ${HOW}; stderr tail:\n${TAIL}\n`);
}

describe('a server that dies during a call made from the command line', () => {
  it('is told once by tools call, then how the call ended', async () => {
    const result = await runCliInProcess(['tools', 'call', 'crashy__exit_mid_call', 'code=3', '-c', 'mcp-host.json'], {
      ...TIMEOUT,
      cwd: directory,
    });
    expectToldOnce(result);
    expect(result.stderr.endsWith(CLOSING_LINE), result.stderr).toBe(true);
    expect(result.stdout).toBe('');
    expect(result.code).toBe(1);
  }, 90_000);

  it('is told once by connect, whose session goes on with the restarted server', async () => {
    const result = await runCliInProcess(['connect', '-c', 'mcp-host.json'], {
      ...TIMEOUT,
      cwd: directory,
      input: ['call crashy__exit_mid_call code=3', 'call crashy__ping', 'exit', ''].join('\n'),
    });
    expectToldOnce(result);
    expect(result.stderr).toContain(CLOSING_LINE);
    expect(result.stdout).toMatch(/^pong \d+\n$/);
  }, 90_000);

  it('is told once by chat, whose line for the call gives its outcome without beginning the report again', async () => {
    const result = await runCliInProcess(['chat', '-c', 'mcp-host.json'], {
      ...TIMEOUT,
      cwd: directory,
      input: 'crash please\n',
    });
    // The model's answer quotes the result it was given; the rest of what is shown tells the crash once.
    const answer = `The tool said: The tool call failed: ${HOW}; stderr tail:\n${TAIL}\n`;
    expect(result.stdout).toContain(answer);
    expectToldOnce({ stdout: result.stdout.replace(answer, ''), stderr: result.stderr });
    expect(result.stdout).toMatch(/\[1\] ⚙ crashy exit_mid_call \{"code":3\} · \d+ ms · crashed\n/);
  }, 90_000);

  it('is told once by run, while the model gets the whole of it as the call’s result', async () => {
    const result = await runCliInProcess(['run', '-c', 'mcp-host.json', 'crash please'], {
      ...TIMEOUT,
      cwd: directory,
    });
    expect(result.stdout).toBe(`The tool said: The tool call failed: ${HOW}; stderr tail:\n${TAIL}\n`);
    expectToldOnce({ stdout: '', stderr: result.stderr });
    expect(result.code).toBe(0);
  }, 90_000);

  it('is told once by run when the call is sent again and answered', async () => {
    const result = await runCliInProcess(['run', '-c', 'trusted.json', 'read it'], { ...TIMEOUT, cwd: directory });
    expect(result.stdout).toMatch(/^The tool said: read \d+\n$/);
    const how = 'server "crashy" exited with code 5';
    expect(timesIn(result.stderr, how), result.stderr).toBe(1);
    expect(timesIn(result.stderr, ONCE_TAIL), result.stderr).toBe(1);
    expect(result.stderr).toContain(RETRY_LINE);
    expect(result.code).toBe(0);
  }, 90_000);

  it('is told once by tools call when the call is sent again and answered, with the line run gives', async () => {
    const result = await runCliInProcess(['tools', 'call', 'crashy__read_once_exits', '-c', 'trusted-call.json'], {
      ...TIMEOUT,
      cwd: directory,
    });
    expect(result.stdout).toMatch(/^read \d+\n$/);
    expect(result.stderr).toContain(`mcp-host: server "crashy" exited with code 5; stderr tail:\n${ONCE_TAIL}\n`);
    expect(timesIn(result.stderr, ONCE_TAIL), result.stderr).toBe(1);
    expect(timesIn(result.stderr, RETRY_LINE), result.stderr).toBe(1);
    expect(result.code).toBe(0);
  }, 90_000);
});

describe('a call of a library user whose server dies and which is sent again', () => {
  const hosts: Host[] = [];
  afterEach(async () => {
    await Promise.allSettled(hosts.splice(0).map((host) => host.close()));
  });

  async function callOnce(
    marker: string,
    onDiagnostic?: (message: string) => void,
    warningsSayServerExits?: boolean,
  ): Promise<string[]> {
    const config = hostConfig([
      stdioServer('crashy', [fixtureServer('crash-mid-call.mjs')], {
        trust: 'trusted',
        env: { EXITED_ONCE_FILE: join(directory, marker) },
      }),
    ]);
    const host = await createHost({
      config,
      stateDir: join(directory, `${marker}-state`),
      ...(onDiagnostic === undefined ? {} : { onDiagnostic }),
      ...(warningsSayServerExits === undefined ? {} : { warningsSayServerExits }),
    });
    hosts.push(host);
    const warnings: string[] = [];
    const executed = await host.callTool(
      'crashy__read_once_exits',
      {},
      { onWarning: (message) => warnings.push(message) },
    );
    expect(executed.outcome).toBe('ok');
    return warnings;
  }

  it('says how the server went away in the warning when no onDiagnostic heard it', async () => {
    expect(await callOnce('library-exited-once')).toEqual([
      `crashy__read_once_exits lost its server; trying once more, as the tool is marked safe to retry (server "crashy" exited with code 5; stderr tail:\n${ONCE_TAIL})`,
    ]);
  }, 60_000);

  it('leaves it to the report when onDiagnostic heard it', async () => {
    const diagnostics: string[] = [];
    expect(await callOnce('reported-exited-once', (message) => diagnostics.push(message))).toEqual([
      'crashy__read_once_exits lost its server; trying once more, as the tool is marked safe to retry',
    ]);
    expect(diagnostics).toContain(`server "crashy" exited with code 5; stderr tail:\n${ONCE_TAIL}`);
  }, 60_000);

  it('says it in the warning as well when the warnings go where onDiagnostic does not (the web UI)', async () => {
    const diagnostics: string[] = [];
    expect(await callOnce('apart-exited-once', (message) => diagnostics.push(message), true)).toEqual([
      `crashy__read_once_exits lost its server; trying once more, as the tool is marked safe to retry (server "crashy" exited with code 5; stderr tail:\n${ONCE_TAIL})`,
    ]);
    expect(diagnostics).toContain(`server "crashy" exited with code 5; stderr tail:\n${ONCE_TAIL}`);
  }, 60_000);
});
