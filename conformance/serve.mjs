#!/usr/bin/env node
/**
 * Runs the official MCP conformance suite's server scenarios against `mcp-host serve --http`, fronting
 * conformance/scenario-server.mjs (the tools, resources and prompts the scenarios name) over stdio.
 *
 * The runner connects without credentials and has no option to send any, while the gateway always wants a bearer
 * token; a small proxy in front adds the run's token and passes everything else through untouched (the Host and
 * Origin headers too, for the DNS-rebinding scenario), as an authenticating reverse proxy would. Each scenario runs
 * through the official runner (on Node 22, from tools/node22) and is judged against expected-server-failures.yml by
 * the runner itself: a failure not listed fails the run, and so does a listed scenario that now passes.
 *
 * Usage: node conformance/serve.mjs [--scenario NAME]... [--verbose]
 * Exit code 0 when every scenario passed or failed as expected; 1 otherwise; 2 when the tools are missing.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installNode22Tools, node22Binary } from '../tools/node22.mjs';
import { indent, RUNNER, root, run, runMain } from './runner-process.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const EXPECTED_FAILURES = join(here, 'expected-server-failures.yml');
const SCENARIO_SERVER = join(here, 'scenario-server.mjs');
const CLI = join(root, 'dist', 'bundle', 'cli', 'main.js');
/** The fixture server's name in the config, and so the prefix of its tools' and prompts' names. */
const SERVER_NAME = 'scenarios';
const START_TIMEOUT_MS = 120_000;

function parseArguments(argv) {
  const options = { scenarios: [], verbose: false };
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index];
    if (argument === '--scenario') {
      const next = argv[++index];
      if (next === undefined) throw new Error('--scenario needs a value');
      options.scenarios.push(next);
    } else if (argument === '--verbose') options.verbose = true;
    else throw new Error(`unknown argument ${argument}; see the comment at the top of conformance/serve.mjs`);
  }
  return options;
}

/** The suite's server scenarios, as the runner itself lists them. */
async function listScenarios() {
  const { code, output } = await run(node22Binary, [RUNNER, 'list', '--server']);
  if (code !== 0) throw new Error(`could not list the conformance server scenarios:\n${output}`);
  return [...output.matchAll(/^\s+- (\S+)/gm)].map((match) => match[1]);
}

/** `mcp-host serve --http 0` fronting the scenario server; resolves with its URL once it listens. */
function startGateway(folder, token) {
  const config = join(folder, 'mcp-host.json');
  writeFileSync(
    config,
    JSON.stringify({
      mcpServers: { [SERVER_NAME]: { command: process.execPath, args: [SCENARIO_SERVER], trust: 'trusted' } },
      permissions: { allow: [`${SERVER_NAME}__*`] },
    }),
  );
  const child = spawn(process.execPath, [CLI, 'serve', '--http', '0', '--config', config, '--state-dir', folder], {
    cwd: root,
    env: { ...process.env, MCP_HOST_GATEWAY_TOKEN: token },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let stderr = '';
    const timer = setTimeout(() => reject(new Error(`the gateway did not start:\n${stderr}`)), START_TIMEOUT_MS);
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      const match = /serving (http:\S+)/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: new URL(match[1]), stderr: () => stderr });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the gateway exited with ${code}:\n${stderr}`));
    });
  });
}

/** Forwards every request to `target` with `Authorization: Bearer token` added; nothing else changes. */
function startTokenProxy(target, token) {
  const proxy = createServer((incoming, outgoing) => {
    const forwarded = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, authorization: `Bearer ${token}` },
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on('error', () => outgoing.destroy());
    outgoing.on('close', () => forwarded.destroy());
    incoming.pipe(forwarded);
  });
  return new Promise((resolve) => {
    proxy.listen(0, '127.0.0.1', () => resolve(proxy));
  });
}

async function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.removeAllListeners('exit');
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

async function main() {
  const options = parseArguments(process.argv.slice(2));
  try {
    installNode22Tools();
  } catch (error) {
    process.stderr.write(`${error.message}\n`);
  }
  const missing = [];
  if (!existsSync(node22Binary)) missing.push(`the Node 22 binary: run \`npm run install-node22\``);
  if (!existsSync(RUNNER)) missing.push('the conformance runner: run `npm run install-node22`');
  if (!existsSync(CLI)) missing.push('the built CLI (dist/): run `npm run build`');
  if (missing.length > 0) {
    process.stderr.write(
      `Cannot run the server scenarios; missing:\n${missing.map((line) => `  - ${line}`).join('\n')}\n`,
    );
    return 2;
  }
  const all = await listScenarios();
  const unknown = options.scenarios.filter((name) => !all.includes(name));
  if (unknown.length > 0) throw new Error(`unknown scenario(s): ${unknown.join(', ')}; known: ${all.join(', ')}`);
  const scenarios = options.scenarios.length > 0 ? options.scenarios : all;

  const folder = mkdtempSync(join(tmpdir(), 'mcp-host-conformance-'));
  const token = randomBytes(24).toString('base64url');
  let gateway;
  let proxy;
  try {
    gateway = await startGateway(folder, token);
    proxy = await startTokenProxy(gateway.url, token);
    const url = `http://localhost:${proxy.address().port}${gateway.url.pathname}`;
    process.stdout.write(`Running ${scenarios.length} conformance server scenarios against mcp-host serve\n`);
    const results = [];
    for (const scenario of scenarios) {
      const started = Date.now();
      const args = [RUNNER, 'server', '--url', url, '--scenario', scenario, '--expected-failures', EXPECTED_FAILURES];
      const { code, output } = await run(node22Binary, args);
      const expected = /Expected failures \(in baseline\)/.test(output);
      const stale = /Stale baseline entries/.test(output);
      const result = { scenario, passed: code === 0, expected, stale, output, seconds: (Date.now() - started) / 1000 };
      results.push(result);
      const verdict = result.passed ? (result.expected ? '~ expected failure' : '✓ passed') : '✗ FAILED';
      process.stdout.write(`${verdict.padEnd(20)} ${scenario} (${result.seconds.toFixed(1)} s)\n`);
      if (!result.passed || options.verbose) process.stdout.write(indent(output));
    }
    const failed = results.filter((result) => !result.passed);
    const expected = results.filter((result) => result.passed && result.expected);
    process.stdout.write(
      `\n${results.length - failed.length - expected.length} passed, ${expected.length} failed as expected, ${failed.length} unexpected\n`,
    );
    for (const result of failed) {
      const why = result.stale
        ? 'passes now: remove it from expected-server-failures.yml'
        : 'failed and is not expected to';
      process.stdout.write(`  ✗ ${result.scenario}: ${why}\n`);
    }
    return failed.length === 0 ? 0 : 1;
  } finally {
    if (proxy) {
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
    }
    if (gateway) await stop(gateway.child);
    rmSync(folder, { recursive: true, force: true });
  }
}

runMain(main);
