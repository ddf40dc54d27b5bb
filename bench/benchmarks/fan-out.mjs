/**
 * Benchmark 2 — fan-out. One model turn with `calls` calls to a tool that sleeps `sleepMs`: wall time
 * against the ideal of `sleepMs` (everything at once), for mcp-host at concurrency 32 and at its
 * default bound, and for the raw SDK, @ai-sdk/mcp and mcp-use issuing all calls at once.
 */
import { figure, ratio, spread } from '../lib/format.mjs';
import { runWorker } from '../lib/run-worker.mjs';
import { pairedRatios, summarise } from '../lib/statistics.mjs';
import { SUBJECT_LABELS } from '../lib/subjects.mjs';

const TARGET_RATIO = 1.2;

export async function runFanOut({ node, repetitions, calls, sleepMs, defaultParallelCalls, log }) {
  const cases = [
    { key: 'mcp-host/32', subject: 'mcp-host', maxParallelCalls: 32, concurrency: '32' },
    {
      key: 'mcp-host/default',
      subject: 'mcp-host',
      maxParallelCalls: null,
      concurrency: `default (${defaultParallelCalls})`,
      bound: defaultParallelCalls,
    },
    { key: 'sdk', subject: 'sdk', maxParallelCalls: null, concurrency: 'unbounded (all at once)' },
    { key: 'ai-sdk', subject: 'ai-sdk', maxParallelCalls: null, concurrency: 'unbounded (all at once)' },
    { key: 'mcp-use', subject: 'mcp-use', maxParallelCalls: null, concurrency: 'unbounded (all at once)' },
  ];
  const rows = [];
  const targets = [];
  const data = await runWorker(node, 'fan-out-worker.mjs', {
    cases: cases.map(({ key, subject, maxParallelCalls }) => ({ key, subject, maxParallelCalls })),
    calls,
    sleepMs,
    repetitions,
    warmups: 1,
  });
  const baseline = data.wallMs.sdk;
  for (const entry of cases) {
    const wallMs = data.wallMs[entry.key];
    const wall = summarise(wallMs);
    const vsIdeal = summarise(wallMs.map((ms) => ms / sleepMs));
    const boundIdealMs = Math.ceil(calls / (entry.bound ?? calls)) * sleepMs;
    const vsBound = summarise(wallMs.map((ms) => ms / boundIdealMs));
    const vsSdk = summarise(pairedRatios(wallMs, baseline));
    log(`  fan-out ${entry.key}: wall ${figure(wall.median)} ms (${figure(vsIdeal.median)}× of ${sleepMs} ms)`);
    rows.push([
      SUBJECT_LABELS[entry.subject],
      entry.concurrency,
      spread(wall),
      ratio(vsIdeal),
      `${ratio(vsBound)} of ${boundIdealMs} ms`,
      entry.key === 'sdk' ? 'baseline' : ratio(vsSdk),
    ]);
    if (entry.key === 'mcp-host/32') {
      // Both ratios to the ideal share the denominator, so "no worse than the raw SDK's ratio" is this pairing.
      targets.push({
        description: `mcp-host at concurrency 32: its ratio to the ideal ${sleepMs} ms no more than the raw SDK's (ratio of the two)`,
        measured: vsSdk.median,
        limit: 1,
        met: vsSdk.median <= 1,
      });
      targets.push({
        description: `mcp-host at concurrency 32 within ${TARGET_RATIO}× of the ideal ${sleepMs} ms`,
        measured: vsIdeal.median,
        limit: TARGET_RATIO,
        met: vsIdeal.median <= TARGET_RATIO,
      });
    }
  }
  return {
    id: 'fan-out',
    title: '2. Fan-out',
    what: `One model turn asking for ${calls} calls of \`sleep(${sleepMs})\` on one stdio server. mcp-host runs the turn through \`Host.run\` with a scripted model (its loop and its bound on parallel calls; the wall time includes both model turns); the raw SDK, @ai-sdk/mcp and mcp-use issue the ${calls} calls at once, as the AI SDK's \`generateText\` does with one step's tool calls. Each row has its own client and server in one process; ${repetitions} repetitions after one warm-up go round the rows in turn, and "vs raw SDK" pairs repetition i of each row.`,
    columns: ['client', 'concurrency', 'wall ms', `vs ideal ${sleepMs} ms`, 'vs ideal at that bound', 'vs raw SDK'],
    rows,
    targets,
    data,
  };
}
