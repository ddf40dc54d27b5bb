#!/usr/bin/env node
/**
 * Runs the official MCP conformance client suite against the host's driver (conformance/client.mjs).
 *
 * The suite's runner needs Node 22, so it runs on the binary of the nested tools/node22 package; the driver runs on
 * the Node that runs this script (the project's own). Every scenario of the suite's `all` list runs through the
 * official runner, one scenario per invocation and a few at a time, judged against expected-failures.yml by the
 * runner itself: a failure not listed fails the run, and so does a listed scenario that now passes. (The runner's
 * own `--suite all` starts every scenario at once, which on a small machine turns timing checks into noise.)
 *
 * With `--revision 2026-07-28` it runs instead the client scenarios that revision requires (the runner's
 * `--requirements` list, from the pre-release runner that has it), each at that revision's wire, judged against
 * expected-failures-2026-07-28.yml.
 *
 * Usage: node conformance/run.mjs [--revision 2026-07-28] [--scenario NAME]... [--jobs N] [--output-dir DIR] [--verbose]
 * Exit code 0 when every scenario passed or failed as expected; 1 otherwise; 2 when the tools are missing.
 */
import { existsSync } from 'node:fs';
import { cpus } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installNode22Tools, node22Binary, node22PackageDirectory } from '../tools/node22.mjs';
import { indent, RUNNER, root, run, runMain } from './runner-process.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const NODE22 = node22Binary;
const EXPECTED_FAILURES = join(here, 'expected-failures.yml');
/** Protocol revisions whose required scenarios only the pre-release runner lists. */
const REVISIONS = {
  '2026-07-28': {
    runner: join(node22PackageDirectory, 'node_modules', 'conformance-2026', 'dist', 'index.js'),
    expectedFailures: join(here, 'expected-failures-2026-07-28.yml'),
  },
};
const DRIVER = join(here, 'client.mjs');
const BUILT_DRIVER_DEPENDENCY = join(root, 'dist', 'src', 'connections', 'oauth', 'remote-authorization.js');
/** Per scenario, for the runner's wait on the driver; generous because CI machines are shared. */
const SCENARIO_TIMEOUT_MS = 90_000;

function parseArguments(argv) {
  const options = {
    scenarios: [],
    revision: undefined,
    jobs: Math.min(2, Math.max(1, cpus().length)),
    outputDir: undefined,
    verbose: false,
  };
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index];
    const value = () => {
      const next = argv[++index];
      if (next === undefined) throw new Error(`${argument} needs a value`);
      return next;
    };
    if (argument === '--scenario') options.scenarios.push(value());
    else if (argument === '--revision') {
      options.revision = value();
      if (REVISIONS[options.revision] === undefined) {
        throw new Error(`--revision: expected one of ${Object.keys(REVISIONS).join(', ')}, found ${options.revision}`);
      }
    } else if (argument === '--jobs') options.jobs = Math.max(1, Number.parseInt(value(), 10) || 1);
    else if (argument === '--output-dir') options.outputDir = value();
    else if (argument === '--verbose') options.verbose = true;
    else throw new Error(`unknown argument ${argument}; see the comment at the top of conformance/run.mjs`);
  }
  return options;
}

/** The runner, its baseline and its scenario options: the released suite, or a revision's requirements. */
function suiteFor(revision) {
  if (revision === undefined) return { runner: RUNNER, expectedFailures: EXPECTED_FAILURES, scenarioOptions: [] };
  return { ...REVISIONS[revision], scenarioOptions: ['--spec-version', revision] };
}

/**
 * The suite's `all` list of client scenarios, as the runner itself reports it; for a revision, the client
 * scenarios it requires (not the extensions it runs without scoring).
 */
async function listScenarios(revision) {
  const { runner } = suiteFor(revision);
  const args = revision === undefined ? ['list', '--client'] : ['list', '--requirements', revision];
  const { code, output } = await run(NODE22, [runner, ...args]);
  if (code !== 0) throw new Error(`could not list the conformance scenarios:\n${output}`);
  const clientSection = output.slice(output.indexOf('Client scenarios')).split(/\n\s*\n/)[0] ?? '';
  return [...clientSection.matchAll(/^\s+- (\S+)/gm)].map((match) => match[1]);
}

/** The driver command the runner starts; it splits on spaces, so a Node path with spaces falls back to PATH. */
function driverCommand() {
  const node = process.execPath.includes(' ') ? 'node' : process.execPath;
  return `${node} ${DRIVER}`;
}

/** Runs one scenario through the official runner; `passed` is the runner's verdict against the baseline. */
async function runScenario(scenario, options = {}) {
  const suite = suiteFor(options.revision);
  const args = [suite.runner, 'client', '--command', driverCommand(), '--scenario', scenario, ...suite.scenarioOptions];
  args.push('--expected-failures', suite.expectedFailures, '--timeout', String(SCENARIO_TIMEOUT_MS));
  if (options.outputDir) args.push('--output-dir', options.outputDir);
  const started = Date.now();
  const { code, output } = await run(NODE22, args);
  const expected = /Expected failures \(in baseline\)/.test(output);
  const stale = /Stale baseline entries/.test(output);
  return { scenario, passed: code === 0, expected, stale, output, seconds: (Date.now() - started) / 1000 };
}

function checkTools(revision) {
  const { runner } = suiteFor(revision);
  const missing = [];
  if (!existsSync(NODE22)) missing.push(`the Node 22 binary (${NODE22}): run \`npm ci --prefix tools/node22\``);
  if (!existsSync(runner)) missing.push(`the conformance runner (${runner}): run \`npm ci --prefix tools/node22\``);
  if (!existsSync(BUILT_DRIVER_DEPENDENCY)) missing.push('the built host (dist/): run `npm run build`');
  return missing;
}

async function main() {
  const options = parseArguments(process.argv.slice(2));
  try {
    installNode22Tools();
  } catch (error) {
    process.stderr.write(`${error.message}\n`);
  }
  const missing = checkTools(options.revision);
  if (missing.length > 0) {
    process.stderr.write(
      `Cannot run the conformance suite; missing:\n${missing.map((line) => `  - ${line}`).join('\n')}\n`,
    );
    return 2;
  }
  const all = await listScenarios(options.revision);
  const unknown = options.scenarios.filter((name) => !all.includes(name));
  if (unknown.length > 0) throw new Error(`unknown scenario(s): ${unknown.join(', ')}; known: ${all.join(', ')}`);
  const scenarios = options.scenarios.length > 0 ? options.scenarios : all;
  const suiteName = options.revision === undefined ? '' : ` (revision ${options.revision})`;
  process.stdout.write(
    `Running ${scenarios.length} conformance client scenarios${suiteName}, ${options.jobs} at a time\n`,
  );

  const results = [];
  const queue = [...scenarios];
  const worker = async () => {
    for (let scenario = queue.shift(); scenario !== undefined; scenario = queue.shift()) {
      const result = await runScenario(scenario, options);
      results.push(result);
      const verdict = result.passed ? (result.expected ? '~ expected failure' : '✓ passed') : '✗ FAILED';
      process.stdout.write(`${verdict.padEnd(20)} ${scenario} (${result.seconds.toFixed(1)} s)\n`);
      if (!result.passed || options.verbose) process.stdout.write(indent(result.output));
    }
  };
  await Promise.all(Array.from({ length: options.jobs }, worker));

  const failed = results.filter((result) => !result.passed);
  const expected = results.filter((result) => result.passed && result.expected);
  process.stdout.write(
    `\n${results.length - failed.length - expected.length} passed, ${expected.length} failed as expected, ${failed.length} unexpected\n`,
  );
  for (const result of failed) {
    const baseline = basename(suiteFor(options.revision).expectedFailures);
    const why = result.stale ? `passes now: remove it from ${baseline}` : 'failed and is not expected to';
    process.stdout.write(`  ✗ ${result.scenario}: ${why}\n`);
  }
  return failed.length === 0 ? 0 : 1;
}

runMain(main);
