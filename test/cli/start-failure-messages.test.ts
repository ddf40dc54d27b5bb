/**
 * A local server that cannot be started (its command not found, its working folder not there, its command not
 * executable, a command or folder too long to use) is reported as the start-up timeout reports one: what to fix,
 * then its command line and folder quoted, with the config's secrets redacted, nothing a terminal acts on, and cut
 * to a length a person can read. The same real config is read by the CLI and by a library host.
 */
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryAuditSink } from '../../src/audit/audit-sink.js';
import { createHost, type Host } from '../../src/host/create-host.js';
import { TrustStore } from '../../src/policy/trust-store.js';
import { runCliInProcess } from '../helpers/in-process-cli.js';
import { exampleServer, temporaryDirectory } from '../helpers/project.js';

/** Values given through `${env:…}`: a quote and a control sequence, which quoting would rewrite, around parts to look for. */
const ARGUMENT_SECRET = "tok'en\u001b[1m-5521-private";
const FOLDER_SECRET = "folder'-7788-private";
const SECRET_PARTS = ['5521', '7788', 'private'];
const ENV = { START_SECRET: ARGUMENT_SECRET, START_FOLDER: FOLDER_SECRET };
const LONG = 100_000;
/** Longer than any start failure's message, far shorter than the command or folder it quotes. */
const READABLE_MESSAGE = 2_000;
const calculator = exampleServer('calculator');

let directory: string;
let configFile: string;

beforeAll(async () => {
  directory = await temporaryDirectory();
  const locked = join(directory, 'locked.sh');
  writeFileSync(locked, '#!/bin/sh\nexit 0\n');
  chmodSync(locked, 0o644);
  configFile = join(directory, 'mcp-host.json');
  writeFileSync(
    configFile,
    JSON.stringify({
      mcpServers: {
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the config's own substitution syntax.
        missing: { command: 'no-such-command-4417', args: ['--token', '${env:START_SECRET}'] },
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the config's own substitution syntax.
        nofolder: { command: process.execPath, args: [calculator], cwd: '${env:START_FOLDER}/sub' },
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the config's own substitution syntax.
        locked: { command: locked, args: ['${env:START_SECRET}'] },
        longcommand: { command: `\u001b[31m${'c'.repeat(LONG)}` },
        longfolder: { command: process.execPath, args: [calculator], cwd: `\u001b[2J${'f'.repeat(LONG)}` },
      },
    }),
  );
});

/** What each server's failure says, given the folder the config is in. */
function expectedMessages(): Record<string, { first: RegExp; command: string | RegExp }> {
  return {
    missing: {
      first: /^server "missing" failed to start: command not found: check `command` in its config entry/,
      command: `command: no-such-command-4417 --token [redacted] (in ${directory})`,
    },
    nofolder: {
      first: /^server "nofolder" failed to start: its working folder does not exist: check `cwd` in its config entry/,
      command: `command: ${process.execPath} ${calculator} (in ${directory}/[redacted]/sub)`,
    },
    locked: {
      first:
        /^server "locked" failed to start: its command could not be run \(EACCES\): check `command` in its config entry.*executable/,
      command: `command: ${directory}/locked.sh [redacted] (in ${directory})`,
    },
    longcommand: {
      first: /^server "longcommand" failed to start: its command could not be run \(ENAMETOOLONG\): check `command`/,
      command: new RegExp(`^command: \\$'\\\\x1b\\[31mc{100,}… ${escaped(`(in ${directory})`)}$`),
    },
    longfolder: {
      first: /^server "longfolder" failed to start: its working folder cannot be used \(ENAMETOOLONG\): check `cwd`/,
      command: new RegExp(
        `^command: ${escaped(`${process.execPath} ${calculator} (in $'${directory}/\\x1b[2J`)}f{100,}…\\)$`,
      ),
    },
  };
}

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A failure's lines: what to fix first, then the command line; no secret, no control code, readable length. */
function expectReadableFailure(message: string | undefined, name: string): void {
  const expected = expectedMessages()[name]!;
  expect(message, name).toBeDefined();
  const [first, commandLine] = message!.split('\n');
  expect(first).toMatch(expected.first);
  if (typeof expected.command === 'string') expect(commandLine).toBe(expected.command);
  else expect(commandLine).toMatch(expected.command);
  expect(message!.length, name).toBeLessThan(READABLE_MESSAGE);
  expect(message).not.toContain('\u001b');
  for (const part of SECRET_PARTS) expect(message, `${name} holds ${part}`).not.toContain(part);
}

const NAMES = ['missing', 'nofolder', 'locked', 'longcommand', 'longfolder'];

describe('a server that cannot be started, on the command line', () => {
  it('is named with what to fix and its command line quoted, redacted and bounded', async () => {
    const result = await runCliInProcess(['servers', '--config', configFile], {
      cwd: directory,
      env: ENV,
      timeoutMs: 60_000,
    });
    expect(result.code, result.stderr.slice(0, 2_000)).toBe(1);
    for (const part of SECRET_PARTS) {
      expect(result.stderr, `stderr holds ${part}`).not.toContain(part);
      expect(result.stdout, `stdout holds ${part}`).not.toContain(part);
    }
    for (const name of NAMES) {
      const start = result.stderr.indexOf(`mcp-host: server "${name}" failed to start`);
      expect(start, name).toBeGreaterThanOrEqual(0);
      const lines = result.stderr.slice(start + 'mcp-host: '.length).split('\n');
      expectReadableFailure(lines.slice(0, 2).join('\n'), name);
    }
  }, 90_000);
});

describe('a server that cannot be started, in a library host', () => {
  let host: Host;

  beforeAll(async () => {
    host = await createHost({
      config: configFile,
      cwd: directory,
      env: ENV,
      auditSink: createMemoryAuditSink(),
      trustStore: TrustStore.inMemory(),
    });
  }, 60_000);

  afterAll(async () => {
    await host?.close();
  });

  it("has what to fix and its command line quoted, redacted and bounded in the server's lastError", () => {
    for (const name of NAMES) {
      const status = host.servers().find((server) => server.name === name);
      expect(status?.state, name).toBe('failed');
      expectReadableFailure(status?.lastError, name);
    }
  });
});
