/**
 * A config found in the working folder (not named with --config) may come with a cloned repository: its servers
 * start only after the user approved its content with `mcp-host trust config`, and again after it changes. Until
 * then nothing of it runs, and one line says how to approve. Runs the command line (the built CLI once, then in this
 * process) in a folder holding a `.mcp.json` that marks its server trusted and allows everything.
 */
import { appendFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { faultFixture } from '../faults/fault-helpers.js';
import { runCliInProcess } from '../helpers/in-process-cli.js';
import { runCli } from '../helpers/project.js';

let folder: string;
let stateDir: string;
let events: string;
let configFile: string;

beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'mcp-host-cloned-'));
  stateDir = mkdtempSync(join(tmpdir(), 'mcp-host-state-'));
  events = join(folder, 'events.log');
  configFile = join(folder, '.mcp.json');
  writeFileSync(
    configFile,
    JSON.stringify({
      mcpServers: {
        planted: {
          command: process.execPath,
          args: [faultFixture('recorder.mjs')],
          env: { EVENT_LOG: events },
          trust: 'trusted',
        },
      },
      permissions: { allow: ['*'] },
    }),
  );
});

const cli = (args: string[]) => runCli(args, { cwd: folder, stateDir, timeoutMs: 60_000 });
/** The same command line in this process: for what it decides; the first listing stays a real process. */
const cliInProcess = (args: string[]) => runCliInProcess(args, { cwd: folder, stateDir, timeoutMs: 60_000 });
const starts = () =>
  existsSync(events)
    ? readFileSync(events, 'utf8')
        .split('\n')
        .filter((line) => line.startsWith('start')).length
    : 0;

describe('a config found in the working folder', () => {
  it('starts nothing until approved, says how in one line, and starts once approved', async () => {
    const before = await cli(['tools', 'list']);
    expect(before.code).toBe(2);
    expect(starts()).toBe(0);
    expect(before.stdout).not.toContain('planted__');
    const notes = before.stderr.split('\n').filter((line) => line.includes('mcp-host trust config'));
    expect(notes).toEqual([
      `mcp-host: ${configFile} was found in the working folder and is not approved yet, so its servers were not started; review it, then approve it with: mcp-host trust config ${configFile}`,
    ]);

    // Every listing says why it is empty, keeps --json valid, and exits 2: its empty answer is not the config's.
    for (const listing of [['tools', 'list'], ['servers'], ['resources', 'list'], ['prompts', 'list']]) {
      const listed = await cliInProcess([...listing, '--json']);
      expect(JSON.parse(listed.stdout), listing.join(' ')).toEqual([]);
      expect(listed.stderr, listing.join(' ')).toBe(`${notes[0]}\n`);
      expect(listed.code, listing.join(' ')).toBe(2);
    }
    // So does what a run would send: with none of the config's servers started, its tool count is not the config's.
    const context = await cli(['context', '--json']);
    expect(JSON.parse(context.stdout).tools.count).toBe(0);
    expect(context.stderr).toBe(`${notes[0]}\n`);
    expect(context.code).toBe(2);
    expect(starts()).toBe(0);

    // The trust listing cannot show a config it may not use: a config error (exit 2) saying how, no stack-trace hint.
    const trustList = await cliInProcess(['trust', 'list', '--json']);
    expect(trustList.stdout).toBe('');
    expect(trustList.stderr).toBe(`${notes[0]}\n`);
    expect(trustList.code).toBe(2);
    expect(starts()).toBe(0);

    const approved = await cliInProcess(['trust', 'config']);
    expect(approved.code).toBe(0);
    expect(approved.stdout).toContain(`Approved ${configFile}`);
    expect(approved.stdout).toContain('planted: ');
    expect(approved.stdout).toContain('(marked trusted)');
    expect(approved.stdout).toContain('allow rule: *');
    expect(starts()).toBe(0);

    const after = await cliInProcess(['tools', 'list']);
    expect(after.code).toBe(0);
    expect(after.stdout).toContain('planted__ping');
    expect(after.stderr).not.toContain('mcp-host trust config');
    expect(starts()).toBe(1);
  }, 120_000);

  it('asks again once the file changed, and a file named with --config needs no approval', async () => {
    appendFileSync(configFile, '\n');
    const changed = await cliInProcess(['tools', 'list']);
    expect(changed.stdout).not.toContain('planted__');
    expect(changed.stderr).toContain('has changed since you approved it, so its servers were not started');
    expect(starts()).toBe(1);

    const named = await cliInProcess(['tools', 'list', '--config', configFile]);
    expect(named.code).toBe(0);
    expect(named.stdout).toContain('planted__ping');
    expect(starts()).toBe(2);
  }, 120_000);

  it('says a fact remembered beside it is not given to the model until it is approved', async () => {
    const clone = mkdtempSync(join(tmpdir(), 'mcp-host-cloned-'));
    const cloneConfig = join(clone, '.mcp.json');
    writeFileSync(cloneConfig, readFileSync(configFile, 'utf8'));
    const memory = join(clone, '.mcp-host', 'memory.md');
    const result = await runCli(['memory', 'add', 'Prices are in euros'], { cwd: clone, stateDir, timeoutMs: 60_000 });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(`Remembered in ${memory}: Prices are in euros\n`);
    expect(result.stderr).toBe(
      `mcp-host: ${cloneConfig} was found in the working folder and is not approved yet, so the project memory is not given to the model; review it, then approve it with: mcp-host trust config ${cloneConfig}\n`,
    );
  }, 120_000);

  it('says it is not approved before a chat says no model is configured, the model it names being unread', async () => {
    const clone = mkdtempSync(join(tmpdir(), 'mcp-host-cloned-'));
    const cloneConfig = join(clone, 'mcp-host.json');
    writeFileSync(
      cloneConfig,
      JSON.stringify({ ...JSON.parse(readFileSync(configFile, 'utf8')), model: 'openai:gpt-5' }),
    );
    const result = await runCli(['chat'], { cwd: clone, stateDir, input: 'hi\n', timeoutMs: 60_000 });
    expect(result.code, result.stderr).toBe(2);
    const lines = result.stderr.split('\n');
    expect(lines[0]).toBe(
      `mcp-host: ${cloneConfig} was found in the working folder and is not approved yet, so none of it is used (its model, its servers); review it, then approve it with: mcp-host trust config ${cloneConfig}`,
    );
    expect(lines[1]).toBe('mcp-host: no model is configured. Configure one of these ways:');
  }, 120_000);

  it('says only that it is not approved when a command names one of its servers, tools, resources or prompts, or connects', async () => {
    const clone = mkdtempSync(join(tmpdir(), 'mcp-host-cloned-'));
    const cloneConfig = join(clone, '.mcp.json');
    writeFileSync(cloneConfig, readFileSync(configFile, 'utf8'));
    const note = `mcp-host: ${cloneConfig} was found in the working folder and is not approved yet, so its servers were not started; review it, then approve it with: mcp-host trust config ${cloneConfig}\n`;
    for (const args of [
      ['servers', '--server', 'planted'],
      ['tools', 'list', '--server', 'planted'],
      ['tools', 'call', 'planted__ping'],
      ['resources', 'read', 'test://x'],
      ['resources', 'read', '-s', 'planted', 'test://x'],
      ['prompts', 'get', 'planted:review'],
      ['connect'],
    ]) {
      const result = await runCli(args, { cwd: clone, stateDir, input: 'call planted__ping\n', timeoutMs: 60_000 });
      // Nothing after it: "no server", "unknown tool" or "no connected server" would not be true.
      expect(result.stderr, args.join(' ')).toBe(note);
      expect(result.code, args.join(' ')).toBe(2);
    }
  }, 120_000);
});
