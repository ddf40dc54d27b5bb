/** Exit codes agree across commands, and the wording people meet is the same everywhere. */
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { packageBin } from '../client-features/helpers.js';
import { calculatorConfig } from '../helpers/calculator-config.js';
import { runCliInProcess } from '../helpers/in-process-cli.js';
import { exampleServer, fixtureServer, repoRoot, runCli, temporaryDirectory, writeConfig } from '../helpers/project.js';

// The CLI starts real processes on two shared cores: generous timeouts, no timing assertions.
const TIMEOUT = { timeoutMs: 120_000 };

const everything = packageBin('@modelcontextprotocol/server-everything');
let twoServers: string;

beforeAll(async () => {
  twoServers = await writeConfig({
    mcpServers: {
      everything: { command: process.execPath, args: [everything, 'stdio'] },
      again: { command: process.execPath, args: [everything, 'stdio'] },
    },
  });
});

describe('prompt errors are usage errors, like an unknown tool', () => {
  it('an unknown prompt exits 2 naming it and the prompts there are', async () => {
    const result = await runCliInProcess(
      ['prompts', 'get', 'everything:no-such-prompt', '--config', twoServers],
      TIMEOUT,
    );
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(/^mcp-host: .*has no prompt "no-such-prompt" \(its prompts: .*simple-prompt/m);
  }, 150_000);

  it('an ambiguous prompt exits 2 naming both ways to write it', async () => {
    const result = await runCliInProcess(['prompts', 'get', 'simple-prompt', '--config', twoServers], TIMEOUT);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(
      /several servers have a prompt "simple-prompt": write it as (again|everything):simple-prompt or (again|everything):simple-prompt/,
    );
  }, 150_000);

  it('a missing required argument exits 2 naming it', async () => {
    const result = await runCliInProcess(['prompts', 'get', 'everything:args-prompt', '--config', twoServers], TIMEOUT);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain('needs the argument city: pass city=VALUE');
  }, 150_000);

  it('an argument the prompt does not declare exits 2 naming it, a close one and those it takes', async () => {
    // A real process: the misspelt optional `state` would reach the server and be dropped there without a word.
    const result = await runCli(
      ['prompts', 'get', 'everything:args-prompt', 'city=Paris', 'stat=Texas', '--config', twoServers],
      TIMEOUT,
    );
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(
      'prompt "everything:args-prompt" has no argument "stat" (did you mean state? its arguments: city, state)',
    );

    // A misspelt required one is named as misspelt, not as the one missing.
    const misspelt = await runCliInProcess(
      ['prompts', 'get', 'everything:args-prompt', 'cty=Paris', '--config', twoServers],
      TIMEOUT,
    );
    expect(misspelt.code, misspelt.stderr).toBe(2);
    expect(misspelt.stderr).toContain('has no argument "cty" (did you mean city? its arguments: city, state)');
  }, 150_000);
});

describe('tool arguments the schema refuses are usage errors, like a missing prompt argument', () => {
  it('a missing or mistyped argument exits 2, the call not sent; a call the server fails exits 1', async () => {
    const config = await calculatorConfig();
    const missing = await runCliInProcess(
      ['tools', 'call', 'calculator__add_numbers', 'a=1', '--config', config],
      TIMEOUT,
    );
    expect(missing.code, missing.stderr).toBe(2);
    expect(missing.stderr).toContain('- b: is required');
    expect(missing.stderr).toContain('mcp-host: the call was refused: its arguments are not valid');
    const mistyped = await runCliInProcess(
      ['tools', 'call', 'calculator__add_numbers', '--args', '{"a":1,"b":"two"}', '--config', config],
      TIMEOUT,
    );
    expect(mistyped.code, mistyped.stderr).toBe(2);
    const failed = await runCliInProcess(
      ['tools', 'call', 'calculator__divide', 'a=1', 'b=0', '--config', config],
      TIMEOUT,
    );
    expect(failed.code, failed.stderr).toBe(1);
    expect(failed.stderr).toContain('division by zero');
  }, 150_000);
});

describe('a server that fails to start', () => {
  it('makes servers, the health check, exit 1; the listings exit 0 and name it on stderr', async () => {
    const config = await writeConfig({
      mcpServers: {
        calculator: { command: process.execPath, args: [exampleServer('calculator')] },
        broken: { command: process.execPath, args: ['-e', 'process.exit(3)'] },
      },
    });
    const servers = await runCliInProcess(['servers', '--config', config], TIMEOUT);
    expect(servers.code, servers.stderr).toBe(1);
    expect(servers.stdout).toMatch(/^calculator: connected/m);
    expect(servers.stdout).toMatch(/^broken: failed/m);
    const tools = await runCliInProcess(['tools', 'list', '--config', config], TIMEOUT);
    expect(tools.code, tools.stderr).toBe(0);
    expect(tools.stdout).toContain('calculator__add_numbers');
    expect(tools.stderr).toContain('server "broken" failed to start');
  }, 150_000);

  it('is said alike by every command: that it exited, with its exit code and stderr tail', async () => {
    const config = await writeConfig({
      mcpServers: { broken: { command: process.execPath, args: [fixtureServer('fails-to-start.mjs')] } },
    });
    // Which symptom the handshake meets first (the connection closed, a write to its closed input) is a race: each
    // command says what happened, not the symptom.
    const said =
      'server "broken" failed to start: it exited with code 1 before answering initialize\nstderr tail:\n' +
      'fails-to-start: fatal: cannot open configuration file ./missing-config.toml (ENOENT)';
    const results = await Promise.all([
      runCli(['servers', '--config', config], TIMEOUT),
      ...[['tools', 'list'], ['resources', 'list'], ['prompts', 'list'], ['context'], ['trust']].map((command) =>
        runCliInProcess([...command, '--config', config], TIMEOUT),
      ),
    ]);
    const saidUnderTrustEntry = said.split('\n').join('\n      ');
    for (const [index, result] of results.entries()) {
      // `trust` lists it under the server's entry, its lines indented as the entry's.
      expect(`${result.stdout}${result.stderr}`).toContain(index === results.length - 1 ? saidUnderTrustEntry : said);
      expect(`${result.stdout}${result.stderr}`).not.toMatch(/Connection closed|EPIPE|could not write/);
    }
    expect(results[0]!.stderr.startsWith(`mcp-host: ${said}\n`)).toBe(true);
  }, 150_000);

  it('names a working folder that is not there, not the command, which is there', async () => {
    const config = await writeConfig({
      mcpServers: { calculator: { command: process.execPath, args: [exampleServer('calculator')], cwd: 'no-such' } },
    });
    const missing = join(dirname(config), 'no-such');
    const result = await runCli(['servers', '--config', config], TIMEOUT);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain(
      `server "calculator" failed to start: its working folder does not exist: check \`cwd\` in its config entry\ncommand: ${process.execPath} ${exampleServer('calculator')} (in ${missing})`,
    );
    expect(result.stderr).not.toContain('command not found');

    const file = await writeConfig({
      mcpServers: {
        calculator: { command: process.execPath, args: [exampleServer('calculator')], cwd: 'mcp-host.json' },
      },
    });
    const onFile = await runCli(['servers', '--config', file], TIMEOUT);
    expect(onFile.code, onFile.stderr).toBe(1);
    expect(onFile.stderr).toContain('its working folder is not a folder: check `cwd` in its config entry');
    expect(onFile.stderr).toContain(`(in ${file})`);
  }, 60_000);
});

describe('configs with no servers', () => {
  it('run with `{}` as its config exits 2 saying the file configures no servers', async () => {
    const config = await writeConfig({});
    const result = await runCliInProcess(
      ['run', '--model', 'scripted:examples/scripts/five-plus-seven.json', '--config', config, 'hi'],
      TIMEOUT,
    );
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(`mcp-host: ${config} configures no MCP servers`);
  }, 150_000);

  it('run with no config found exits 2 saying so; servers and trust say so in a note', async () => {
    const directory = await temporaryDirectory();
    const run = await runCliInProcess(['run', '--model', 'scripted:x.json', 'hi'], { ...TIMEOUT, cwd: directory });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain('mcp-host: no config file found');
    const trust = await runCliInProcess(['trust', 'list', '--json'], { ...TIMEOUT, cwd: directory });
    expect(JSON.parse(trust.stdout)).toEqual([]);
    expect(trust.stderr).toContain('mcp-host: no config file found');
    expect(trust.code, trust.stderr).toBe(0);
    const servers = await runCliInProcess(['servers'], { ...TIMEOUT, cwd: directory });
    expect(servers.code, servers.stderr).toBe(0);
    expect(servers.stderr).toContain('mcp-host: no config file found');
    // What to do next, for a user who has no config yet.
    expect(servers.stderr).toContain(
      'Pass --config FILE, or add a server to a new mcp-host.json here with: mcp-host add NAME -- COMMAND [ARGS…]',
    );
  }, 150_000);
});

describe('wording', () => {
  it('a config key typo gets "did you mean"', async () => {
    const directory = await temporaryDirectory();
    const config = join(directory, 'mcp-host.json');
    await writeFile(
      config,
      JSON.stringify({
        mcpServers: { calc: { command: process.execPath, args: [exampleServer('calculator')], timeotMs: 5 } },
      }),
    );
    const result = await runCliInProcess(['servers', '--config', config], TIMEOUT);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(
      'mcpServers.calc.timeotMs: not a setting mcp-host uses; ignored (did you mean "timeoutMs"?)',
    );
  }, 150_000);

  it('--help describes every command in one capitalisation', async () => {
    const result = await runCliInProcess(['--help']);
    expect(result.code).toBe(0);
    const commands = result.stdout.split('Commands:')[1] ?? '';
    const descriptions = commands
      .split('\n')
      .map((line) => /^ {2}\S.*? {2,}(\S)/.exec(line)?.[1])
      .filter((first): first is string => first !== undefined);
    expect(descriptions.length).toBeGreaterThan(5);
    for (const first of descriptions) expect(first).toBe(first.toLowerCase());
  }, 60_000);
});

describe('a model the config names that does not parse', () => {
  it('is a config error naming the file and the key, before any server starts', async () => {
    const config = await writeConfig({
      model: 'sonnet',
      mcpServers: { calculator: { command: process.execPath, args: [exampleServer('calculator')] } },
    });
    const result = await runCli(['run', '--config', config, 'hi'], TIMEOUT);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toBe(
      `mcp-host: ${config}: model: model "sonnet" has no provider: write it as provider:model, e.g. anthropic:claude-sonnet-4-6 (providers: anthropic, openai, openai-responses, gemini, ollama, openai-compatible, scripted)\n`,
    );
  }, 60_000);
});

describe('a sampling model the config names that does not parse', () => {
  it('is a config error naming the file and the key, as the model is, before any server starts', async () => {
    const config = await writeConfig({
      sampling: { model: 'foo' },
      mcpServers: { calculator: { command: process.execPath, args: [exampleServer('calculator')] } },
    });
    const script = join(repoRoot, 'examples', 'scripts', 'five-plus-seven.json');
    const result = await runCli(['run', '--config', config, '-m', `scripted:${script}`, 'hi'], TIMEOUT);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toBe(
      `mcp-host: ${config}: sampling.model: model "foo" has no provider: write it as provider:model, e.g. anthropic:claude-sonnet-4-6 (providers: anthropic, openai, openai-responses, gemini, ollama, openai-compatible, scripted)\n`,
    );
  }, 60_000);
});

describe('a --base-url that is no http or https URL', () => {
  it('is a usage error naming the option and the value, before any server starts', async () => {
    const config = await writeConfig({
      mcpServers: { calculator: { command: process.execPath, args: [exampleServer('calculator')] } },
    });
    for (const value of ['notaurl', 'localhost:11434/v1']) {
      const result = await runCli(['run', '--config', config, '-m', 'openai-compatible:x', '--base-url', value, 'hi']);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toBe(
        `mcp-host: option '--base-url <url>' argument '${value}' is invalid. It must be an http:// or https:// URL, e.g. http://127.0.0.1:8080/v1.\n`,
      );
    }
  }, 60_000);
});

describe('an option value that shows longer than it is', () => {
  it('is quoted cut by how long it shows, so the line still says it is invalid and why', async () => {
    const config = await writeConfig({
      mcpServers: { calculator: { command: process.execPath, args: [exampleServer('calculator')] } },
    });
    // 150 characters, each shown as a six-character escape; and a line break, which would start a line of its own.
    const value = `${'\u200b'.repeat(150)}\nmcp-host: ok`;
    const result = await runCli(['run', '--config', config, '-m', 'openai-compatible:x', '--base-url', value, 'hi']);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(
      /^mcp-host: option '--base-url <url>' argument '(\\u200b)+\\?…' is invalid\. It must be an http:\/\/ or https:\/\/ URL, e\.g\. http:\/\/127\.0\.0\.1:8080\/v1\.\n$/,
    );
  }, 60_000);
});

describe('a state folder that is a file', () => {
  it('exits 2 naming it and what to do, with no hint of an unexpected error', async () => {
    const config = await calculatorConfig();
    const stateFile = join(dirname(config), 'state');
    await writeFile(stateFile, '');
    const result = await runCli(['tools', 'list', '--config', config, '--state-dir', stateFile], TIMEOUT);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toBe(
      `mcp-host: state folder ${stateFile} exists but is not a folder; move it away or choose another with --state-dir or MCP_HOST_STATE_DIR.\n`,
    );

    // `sessions` only reads the folder, and found no sessions in it without a word.
    const sessions = await runCli(['sessions', '--state-dir', stateFile], TIMEOUT);
    expect(sessions.code, sessions.stderr).toBe(2);
    expect(sessions.stdout).toBe('');
    expect(sessions.stderr).toBe(result.stderr);

    // Nor is it an audit log not written yet.
    const audit = await runCli(['audit', '--state-dir', stateFile], TIMEOUT);
    expect(audit.code, audit.stderr).toBe(2);
    expect(audit.stdout).toBe('');
    expect(audit.stderr).toBe(result.stderr);

    // A state folder below the file cannot be created: said so, as a folder that cannot be created is.
    const below = join(stateFile, 'below');
    const writer = await runCli(['tools', 'list', '--config', config, '--state-dir', below], TIMEOUT);
    expect(writer.code, writer.stderr).toBe(2);
    expect(writer.stderr).toBe(
      `mcp-host: could not create the state folder ${below} (ENOTDIR); choose a writable folder with --state-dir or MCP_HOST_STATE_DIR.\n`,
    );

    // An audit log named elsewhere is read without the folder.
    const elsewhere = join(dirname(config), 'elsewhere.jsonl');
    const named = await runCli(['audit', '--state-dir', stateFile, '--audit-file', elsewhere], TIMEOUT);
    expect(named.code, named.stderr).toBe(0);
    expect(named.stderr).toBe(`mcp-host: no audit log at ${elsewhere} yet; it is written when the host runs tools.\n`);
  }, 60_000);
});

describe('a scripted model whose script has a misspelt key', () => {
  it('names the key where it is, before any server starts', async () => {
    const directory = await temporaryDirectory('mcp-host-bad-script-');
    const script = join(directory, 'script.json');
    await writeFile(script, JSON.stringify({ scenarios: [{ match: 'x', turns: [{ txt: 'hi' }] }] }));
    const config = await calculatorConfig();
    const result = await runCli(['run', '--config', config, '--model', `scripted:${script}`, 'x'], TIMEOUT);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(
      `Invalid script ${script}:\n  scenarios[0].turns[0].txt: not a key of the script format`,
    );
  }, 60_000);
});

describe('a config value wrong inside a setting that takes one of two kinds', () => {
  it('names the item that is wrong and what it should be, as other config errors do', async () => {
    const cases: Array<[unknown, string]> = [
      [[5], 'skills[0]: expected a folder path as a string, found the number 5.'],
      [['skills', ''], 'skills[1]: expected a non-empty folder path, found the string "".'],
    ];
    for (const [skills, said] of cases) {
      const config = await writeConfig({ skills });
      const result = await runCli(['skills', 'list', '--config', config], TIMEOUT);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toBe(`mcp-host: ${config}: ${said}\n`);
    }
  }, 120_000);
});
