/**
 * Benchmark 10 — the gateway under load. `clients` concurrent official v2 SDK clients × `calls` sequential calls of
 * the bench server's `echo`, over Streamable HTTP: sent directly to the bench server, then through `mcp-host serve
 * --http` fronting that same server (every call through the host's duties, the JSONL audit included). Each
 * repetition starts fresh processes. Added latency pairs the gateway's p50/p99 with the direct run's of the same
 * repetition; calls per core-second divides the calls by the CPU time (user + system) of the process that
 * answered them: the bench server directly, the gateway process through it (its upstream server not counted).
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spread } from '../lib/format.mjs';
import { projectDirectory } from '../lib/paths.mjs';
import { runWorker } from '../lib/run-worker.mjs';
import { createStateFolder } from '../lib/state-folder.mjs';
import { addToSeries, pairedRatios, summarise } from '../lib/statistics.mjs';

const httpServerPath = join(projectDirectory, 'bench', 'servers', 'http-server.mjs');
const cliPath = join(projectDirectory, 'dist', 'bundle', 'cli', 'main.js');
const TOKEN = 'bench-gateway-token-of-enough-length';
/** Linux reports CPU times in clock ticks of 1/100 s. */
const TICKS_PER_SECOND = 100;

/** User + system CPU seconds of a live process, from /proc. */
function cpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** Starts a process and resolves with it and the first match of `pattern` in its output. */
function startProcess(node, args, pattern, env = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(node, args, {
      cwd: projectDirectory,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${args.join(' ')} did not start:\n${output.slice(-2_000)}`));
    }, 60_000);
    const look = (chunk) => {
      output += chunk;
      const match = pattern.exec(output);
      if (match) {
        clearTimeout(timer);
        child.stdout.off('data', look);
        child.stderr.off('data', look);
        child.stdout.resume();
        child.stderr.resume();
        resolve({ child, match: match[1] });
      }
    };
    child.stdout.on('data', look);
    child.stderr.on('data', look);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${args.join(' ')} exited with ${code}:\n${output.slice(-2_000)}`));
    });
  });
}

async function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.removeAllListeners('exit');
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

async function measure(node, url, pidOfAnswerer, load, token) {
  const before = cpuSeconds(pidOfAnswerer());
  const result = await runWorker(
    node,
    'gateway-load-worker.mjs',
    { url, token, tool: load.tool, ...load.shape },
    // 10,000 calls through the gateway took 13 minutes on a 2-core machine at load 20.
    { timeoutMs: 3_600_000 },
  );
  const cpu = cpuSeconds(pidOfAnswerer()) - before;
  return {
    ...result,
    cpuSeconds: cpu,
    callsPerCoreSecond: result.calls / cpu,
    callsPerSecond: result.calls / (result.wallMs / 1000),
  };
}

export async function runGatewayLoad({ node, repetitions, clients, calls, log }) {
  const runs = {};
  const shape = { clients, calls };
  for (let repetition = 1; repetition <= repetitions; repetition += 1) {
    const server = await startProcess(node, [httpServerPath], /LISTENING (\S+)/);
    const state = createStateFolder();
    let gateway;
    try {
      const direct = await measure(node, server.match, () => server.child.pid, { tool: 'echo', shape });
      addToSeries(runs, 'direct', direct);
      log(
        `  gateway-load ${repetition}/${repetitions} direct: p50 ${direct.p50Ms.toFixed(2)} ms, p99 ${direct.p99Ms.toFixed(2)} ms, ${direct.callsPerSecond.toFixed(0)} calls/s`,
      );

      const config = join(state.path, 'mcp-host.json');
      writeFileSync(
        config,
        JSON.stringify({
          mcpServers: { bench: { url: server.match, trust: 'trusted' } },
          permissions: { allow: ['bench__*'] },
          // The load is one token's: the per-client limits would otherwise be what is measured (or refuse it).
          gateway: { requestsPerMinute: 1_000_000, maxSessionsPerClient: clients, maxSessions: clients },
        }),
      );
      gateway = await startProcess(
        node,
        [cliPath, 'serve', '--http', '0', '--config', config, '--state-dir', state.path],
        /serving (http:\S+)/,
        { MCP_HOST_GATEWAY_TOKEN: TOKEN },
      );
      const through = await measure(
        node,
        gateway.match,
        () => gateway.child.pid,
        { tool: 'bench__echo', shape },
        TOKEN,
      );
      addToSeries(runs, 'gateway', through);
      log(
        `  gateway-load ${repetition}/${repetitions} gateway: p50 ${through.p50Ms.toFixed(2)} ms, p99 ${through.p99Ms.toFixed(2)} ms, ${through.callsPerSecond.toFixed(0)} calls/s`,
      );
      if (direct.failures + through.failures > 0) throw new Error(`${direct.failures + through.failures} calls failed`);
    } finally {
      if (gateway) await stop(gateway.child);
      await stop(server.child);
      state.remove();
    }
  }

  const direct = runs.direct;
  const gateway = runs.gateway;
  const pick = (series, key) => series.map((run) => run[key]);
  const added = (key) => summarise(pick(gateway, key).map((value, index) => value - direct[index][key]));
  const row = (label, series, addedP50, addedP99) => [
    label,
    spread(summarise(pick(series, 'p50Ms'))),
    spread(summarise(pick(series, 'p99Ms'))),
    addedP50,
    addedP99,
    spread(summarise(pick(series, 'callsPerSecond'))),
    spread(summarise(pick(series, 'callsPerCoreSecond'))),
  ];
  return {
    id: 'gateway-load',
    title: '10. Gateway under load',
    what: `${clients} concurrent official v2 SDK clients × ${calls} sequential calls of a trivial \`echo\` (${(clients * calls).toLocaleString('en')} calls, after one warm-up call each), over Streamable HTTP on 127.0.0.1: directly to the bench server, and through \`mcp-host serve --http\` fronting that server (rules, pinning, argument checks, output budget and a JSONL audit record per call; one stateful session per client). Latency of each call in ms; added = gateway minus direct, per repetition. Calls per core-second: calls ÷ CPU seconds (user + system) of the process that answered (the bench server directly; the gateway process alone through it). The load generator runs on the same 2 cores.`,
    columns: ['path', 'p50 ms', 'p99 ms', 'added p50 ms', 'added p99 ms', 'calls/s (wall)', 'calls per core-second'],
    rows: [
      row('direct', direct, 'baseline', 'baseline'),
      row('through the gateway', gateway, spread(added('p50Ms')), spread(added('p99Ms'))),
    ],
    targets: [],
    data: { ...runs, p50Ratio: summarise(pairedRatios(pick(gateway, 'p50Ms'), pick(direct, 'p50Ms'))) },
  };
}
