/**
 * Usage errors as people meet them (one `mcp-host:` line, exit 2, no stack trace), and output into pipes. The table
 * of usage errors runs in-process (the same program, the same exit code and streams); real processes show a person
 * sees the same, and carry everything about pipes.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, stat, writeFile } from 'node:fs/promises';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { calculatorConfig } from '../helpers/calculator-config.js';
import { runCliInProcess } from '../helpers/in-process-cli.js';
import { cliPath, fixtureServer, repoRoot, runCli, writeConfig } from '../helpers/project.js';

// The CLI starts real processes on two shared cores: generous timeouts, no timing assertions.

/** A stack trace line as Node prints it. */
const STACK_LINE = /^\s+at /m;

function expectOneLineUsageError(result: { code: number | null; stdout: string; stderr: string }, named: string) {
  expect(result.code).toBe(2);
  expect(result.stdout).toBe('');
  const lines = result.stderr.trimEnd().split('\n');
  expect(lines, result.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^mcp-host: /);
  expect(lines[0]).toContain(named);
  expect(result.stderr).not.toMatch(STACK_LINE);
}

describe('usage errors', () => {
  it('refuses a non-loopback --host without configured tokens before making a token it could not use', async () => {
    const result = await runCliInProcess(['serve', '--http', '0', '--host', '0.0.0.0']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('listening on 0.0.0.0 (not loopback) needs gateway.tokens');
    expect(result.stderr).not.toContain('gateway token for this run');
  }, 60_000);

  it('prints no token for the run when the port to listen on is taken', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const port = (taken.address() as AddressInfo).port;
      const result = await runCli(['serve', '--http', String(port), '--config', await calculatorConfig()], {
        timeoutMs: 60_000,
      });
      expect(result.code, result.stderr).toBe(1);
      expect(result.stderr).toContain(`cannot listen on 127.0.0.1:${port}: the port is already in use`);
      expect(result.stderr).not.toContain('gateway token for this run');
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  }, 60_000);

  it.each([
    [['run', '--max-turns', '0', 'hi'], '--max-turns'],
    [['tools', 'list', '--timeout', 'x'], '--timeout'],
    [['mock-llm', '--port', 'x'], '--port'],
    [
      ['mock-llm', '--script', 'no-such-script.json'],
      `--script no-such-script.json: there is no file at ${join(repoRoot, 'no-such-script.json')}`,
    ],
    [
      ['mock-llm', '--script', 'examples'],
      `--script examples: ${join(repoRoot, 'examples')} is a folder, not a script file`,
    ],
    [['mock-llm', '--script', 'examples/scripts/five-plus-seven.json', '--port', '70000'], '--port'],
    [['ui', '--port', '70000'], '--port'],
    [['serve', '--http', 'x'], '--http'],
    [['serve', '--http', '70000'], '--http'],
    [['serve', '--host', '0.0.0.0'], '--host'],
    [['run', '--no-such-flag', 'x'], '--no-such-flag'],
    // Commands that call no model still check the one named: a misspelt one is not ignored.
    [['servers', '--model', 'nonsense'], 'model "nonsense" has no provider'],
    [['context', '-m', 'antropic:claude-sonnet-4-6'], 'unknown provider "antropic"'],
    [['ui', '-m', 'nonsense'], 'model "nonsense" has no provider'],
    [['servers', '-m', 'openai'], 'model "openai" names the provider but no model: write it as openai:MODEL'],
    [['no-such-command'], 'no-such-command'],
  ])(
    '%j exits 2 with one line naming %s',
    async (args, named) => {
      expectOneLineUsageError(await runCliInProcess(args), named);
    },
    60_000,
  );

  it('gives a person the same one line and exit 2 from a real process, for commander and for its own checks', async () => {
    const [unknownOption, badPort] = await Promise.all([
      runCli(['run', '--no-such-flag', 'x']),
      runCli(['serve', '--http', '70000']),
    ]);
    expectOneLineUsageError(unknownOption, '--no-such-flag');
    expectOneLineUsageError(badPort, '--http');
  }, 60_000);

  it('names the command, the argument or option it is missing, what that is and the command usage', async () => {
    const expected: Array<[string[], string]> = [
      [
        ['tools', 'call'],
        'mcp-host: tools call needs its NAME argument, namespaced tool name, as `tools list` shows it: mcp-host tools call [options] <name> [pairs...]',
      ],
      [
        ['sessions', 'show'],
        'mcp-host: sessions show needs its ID argument, the session id (as `sessions list` shows it): mcp-host sessions show [options] <id>',
      ],
      [
        ['memory', 'add'],
        'mcp-host: memory add needs its TEXT argument, the fact, in words: mcp-host memory add [options] <text...>',
      ],
      [
        ['mock-llm'],
        'mcp-host: mock-llm needs the option --script <path>, the script to answer with (see examples/scripts/): mcp-host mock-llm [options]',
      ],
    ];
    const results = await Promise.all(expected.map(([args]) => runCli(args)));
    for (const [index, [args, line]] of expected.entries()) {
      expectOneLineUsageError(results[index]!, args.join(' '));
      expect(results[index]!.stderr).toBe(`${line}\n`);
    }
  }, 60_000);

  it("tells the config's misspelt keys before the error they explain: no servers for run, no model for chat", async () => {
    const folder = await mkdtemp(join(tmpdir(), 'mcp-host-misspelt-'));
    const noServers = join(folder, 'no-servers.json');
    await writeFile(noServers, JSON.stringify({ mcpServer: { calc: { command: 'node' } } }));
    const run = await runCli(['run', '--config', noServers, 'hi']);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toBe(
      `mcp-host: ${noServers}: mcpServer: not a setting mcp-host uses; ignored (did you mean "mcpServers"?)\n` +
        `mcp-host: ${noServers} configures no MCP servers (add them under "mcpServers"), so none are connected.\n`,
    );
    const noModel = join(folder, 'no-model.json');
    await writeFile(noModel, JSON.stringify({ modle: 'openai:gpt-5', mcpServers: { calc: { command: 'node' } } }));
    const chat = await runCli(['chat', '--config', noModel], { input: 'hi\n' });
    expect(chat.code, chat.stderr).toBe(2);
    const lines = chat.stderr.split('\n');
    expect(lines[0]).toBe(`mcp-host: ${noModel}: modle: not a setting mcp-host uses; ignored (did you mean "model"?)`);
    expect(lines[1]).toBe('mcp-host: no model is configured. Configure one of these ways:');
  }, 60_000);

  it('names the transport a misspelt add --transport was probably meant to be', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'mcp-host-add-'));
    const result = await runCli(['add', '--transport', 'htp', 'web', 'https://example.test/mcp'], { cwd: folder });
    expectOneLineUsageError(result, '--transport');
    expect(result.stderr).toBe(
      'mcp-host: --transport must be one of stdio, http, sse, got "htp" — did you mean http?\n',
    );
  }, 60_000);

  it('names the line and column of a JSON mistake in a script file, for mock-llm and for the scripted model', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'mcp-host-script-'));
    const script = join(folder, 'script.json');
    await writeFile(script, '{\n  "scenarios": [\n    { "turns": [] },\n  ]\n}\n');
    const expected = `Script file ${script}:4:3: expected another item after \`,\`, found \`]\`. JSON does not allow a trailing comma.`;
    const [mock, run] = await Promise.all([
      runCli(['mock-llm', '--script', script]),
      runCli(['run', '--config', await calculatorConfig(), '-m', `scripted:${script}`, 'hi']),
    ]);
    expect(mock.code, mock.stderr).toBe(2);
    expect(mock.stderr).toContain(expected);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(expected);
  }, 60_000);

  it('says to quote a prompt typed as several words, for run and for chat, before any server starts', async () => {
    const config = await calculatorConfig();
    const run = await runCliInProcess(['run', '--config', config, 'What', 'is', "Bob's", 'total']);
    const chat = await runCliInProcess(['chat', '--config', config, 'hello', 'there']);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      `mcp-host: run takes the prompt as one argument, and got 4 words: put it in quotes, as in mcp-host run 'What is Bob'\\''s total'\n`,
    );
    expect(chat.code).toBe(2);
    expect(chat.stdout).toBe('');
    expect(chat.stderr).toBe(
      "mcp-host: chat takes no message on the command line: type it once the chat starts, or pipe it in (echo 'hello there' | mcp-host chat); for one answer, mcp-host run 'hello there'\n",
    );
  }, 60_000);

  it('refuses an empty prompt argument as it refuses empty input, before any server starts', async () => {
    const config = await calculatorConfig();
    for (const prompt of ['', '   ']) {
      const run = await runCli(['run', '--config', config, prompt]);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toBe('mcp-host: the prompt is empty: say what to ask, as in mcp-host run "PROMPT"\n');
    }
  }, 60_000);

  it('says how to ask a question after a server prompt when it was written among the prompt arguments', async () => {
    const config = await calculatorConfig();
    const result = await runCliInProcess([
      'run',
      '--config',
      config,
      '--prompt',
      'calculator:sum',
      'a=1',
      'What is it?',
    ]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `mcp-host: prompt argument "What is it?" is not key=value; to ask something after the server prompt, end its arguments with -- (mcp-host run --prompt calculator:sum -- 'What is it?') or write the question before --prompt\n`,
    );
  }, 60_000);

  it('refuses a gateway token in MCP_HOST_GATEWAY_TOKEN shorter than the config accepts, in one line, exit 2', async () => {
    const config = await calculatorConfig();
    const result = await runCliInProcess(['serve', '--http', '0', '--config', config], {
      env: { MCP_HOST_GATEWAY_TOKEN: 'short' },
    });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trimEnd()).toBe(
      'mcp-host: MCP_HOST_GATEWAY_TOKEN is 5 characters long; a gateway token needs at least 16',
    );
  }, 60_000);

  it('names a corrupted trust store in one line and exits 2; MCP_HOST_DEBUG=1 adds the stack', async () => {
    const stateDir = await mkdtemp(join(tmpdir(), 'mcp-host-state-'));
    await writeFile(join(stateDir, 'trust.json'), '{ not json');
    const config = await calculatorConfig();
    const result = await runCli(['tools', 'list', '--config', config], { stateDir });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines, result.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/^mcp-host: trust store .*trust\.json is not valid JSON.*delete it to start over/);
    // Where it goes wrong, as a config file's mistake is named.
    expect(lines[0]).toContain('is not valid JSON (at line 1, column 3: expected a property name in double quotes');

    const debug = await runCli(['tools', 'list', '--config', config], { stateDir, env: { MCP_HOST_DEBUG: '1' } });
    expect(debug.code).toBe(2);
    expect(debug.stderr).toMatch(STACK_LINE);
  }, 120_000);
});

/** Runs `mcp-host ARGS | READER` in bash; the code is the CLI's own exit code. */
function pipeCli(
  args: string[],
  reader: string,
  stateDir: string,
): Promise<{ code: number | null; cliCode: number; stdout: string; stderr: string }> {
  const quoted = [process.execPath, cliPath, ...args].map((word) => `'${word.replaceAll("'", "'\\''")}'`).join(' ');
  return new Promise((resolvePromise, reject) => {
    const child = spawn('bash', ['-c', `${quoted} | ${reader}; echo "cli exit \${PIPESTATUS[0]}" >&2`], {
      cwd: repoRoot,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', MCP_HOST_STATE_DIR: stateDir },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(() => {
      // The whole pipeline is one process group: stop all of it.
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      reject(new Error(`mcp-host ${args.join(' ')} | ${reader} did not finish in time\nstderr: ${stderr}`));
    }, 90_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const cliCode = Number(/cli exit (\d+)/.exec(stderr)?.[1] ?? Number.NaN);
      resolvePromise({ code, cliCode, stdout, stderr });
    });
  });
}

/** An audit log of `count` server-start records, as the host writes them. */
async function writeAuditLog(stateDir: string, count: number): Promise<number> {
  const lines: string[] = [];
  for (let index = 0; index < count; index++) {
    lines.push(
      JSON.stringify({
        type: 'server-start',
        time: new Date(Date.UTC(2025, 0, 1, 0, 0, index % 60)).toISOString(),
        runId: `run-${index}`,
        server: 'calc',
        transport: 'stdio',
        trust: 'untrusted',
        pid: 1000 + index,
        protocolVersion: '2025-11-25',
        toolCount: 4,
      }),
    );
  }
  const file = join(stateDir, 'audit.jsonl');
  await writeFile(file, `${lines.join('\n')}\n`);
  return (await stat(file)).size;
}

describe('output into pipes', () => {
  it('writes every byte to a reader that starts reading late (audit --json | (sleep 1; wc -c))', async () => {
    const stateDir = await mkdtemp(join(tmpdir(), 'mcp-host-state-'));
    const size = await writeAuditLog(stateDir, 10_000);
    expect(size).toBeGreaterThan(1_000_000);
    const result = await pipeCli(['audit', '--json'], '(sleep 1; wc -c)', stateDir);
    expect(result.cliCode, result.stderr).toBe(0);
    expect(Number(result.stdout.trim())).toBe(size);
  }, 120_000);

  it('ends cleanly when the reader stops early (audit --json | head -c 200)', async () => {
    const stateDir = await mkdtemp(join(tmpdir(), 'mcp-host-state-'));
    await writeAuditLog(stateDir, 10_000);
    const result = await pipeCli(['audit', '--json'], 'head -c 200', stateDir);
    expect(result.stdout).toHaveLength(200);
    expect(result.stderr).not.toContain('EPIPE');
    expect(result.cliCode, result.stderr).toBe(0);
  }, 120_000);

  it('ends cleanly when the reader stops early (tools list | head -1)', async () => {
    const stateDir = await mkdtemp(join(tmpdir(), 'mcp-host-state-'));
    const config = await writeConfig({
      mcpServers: { many: { command: process.execPath, args: [fixtureServer('many-tools.mjs')] } },
    });
    const result = await pipeCli(['tools', 'list', '--config', config], 'head -1', stateDir);
    expect(result.stdout).toMatch(/^many__tool_0 {2}Tool number 0\./);
    expect(result.stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(result.stderr).not.toContain('EPIPE');
    expect(result.cliCode, result.stderr).toBe(0);
  }, 120_000);
});
