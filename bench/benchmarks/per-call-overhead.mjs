/**
 * Benchmark 1 — per-call overhead. `calls` sequential calls of a trivial tool through mcp-host's full
 * call path, the raw v2 SDK, @ai-sdk/mcp and mcp-use, over in-memory and stdio transports (mcp-use over stdio only). Repetitions are
 * interleaved (every subject once, then again) so drift on a shared machine hits all subjects alike;
 * each ratio pairs repetition i of a subject with repetition i of the raw SDK.
 */
import { ratio, spread } from '../lib/format.mjs';
import { runWorker } from '../lib/run-worker.mjs';
import { addToSeries, pairedRatios, summarise } from '../lib/statistics.mjs';
import { SUBJECT_LABELS, supportsTransport } from '../lib/subjects.mjs';

const SUBJECTS = ['mcp-host', 'sdk', 'ai-sdk', 'mcp-use'];
const TRANSPORTS = ['stdio', 'memory'];
/** Goal: mcp-host's p50 over stdio no more than @ai-sdk/mcp's, the fastest peer when the goal was set. */
const TARGET_RATIO = 1;

export async function runPerCallOverhead({ node, repetitions, calls, warmupCalls, log }) {
  const runs = {};
  for (let repetition = 1; repetition <= repetitions; repetition += 1) {
    for (const transport of TRANSPORTS) {
      for (const subject of SUBJECTS) {
        if (!supportsTransport(subject, transport)) continue;
        const result = await runWorker(node, 'per-call-worker.mjs', { subject, transport, calls, warmupCalls });
        const key = `${subject}/${transport}`;
        addToSeries(runs, key, result);
        log(
          `  per-call ${repetition}/${repetitions} ${key}: p50 ${result.p50Ms.toFixed(3)} ms, p99 ${result.p99Ms.toFixed(3)} ms`,
        );
      }
    }
  }

  const rows = [];
  const targets = [];
  for (const transport of TRANSPORTS) {
    const baseline = runs[`sdk/${transport}`];
    const aiSdk = runs[`ai-sdk/${transport}`];
    for (const subject of SUBJECTS) {
      const series = runs[`${subject}/${transport}`];
      if (series === undefined) continue;
      const p50 = summarise(series.map((run) => run.p50Ms));
      const p99 = summarise(series.map((run) => run.p99Ms));
      const p50Ratio = summarise(
        pairedRatios(
          series.map((run) => run.p50Ms),
          baseline.map((run) => run.p50Ms),
        ),
      );
      const p99Ratio = summarise(
        pairedRatios(
          series.map((run) => run.p99Ms),
          baseline.map((run) => run.p99Ms),
        ),
      );
      const p50VsAiSdk = summarise(
        pairedRatios(
          series.map((run) => run.p50Ms),
          aiSdk.map((run) => run.p50Ms),
        ),
      );
      const isBaseline = subject === 'sdk';
      rows.push([
        transport,
        SUBJECT_LABELS[subject],
        spread(p50),
        spread(p99),
        isBaseline ? 'baseline' : ratio(p50Ratio),
        isBaseline ? 'baseline' : ratio(p99Ratio),
        subject === 'ai-sdk' ? 'reference' : ratio(p50VsAiSdk),
      ]);
      if (subject === 'mcp-host' && transport === 'stdio') {
        targets.push({
          description: 'mcp-host p50 over stdio no more than @ai-sdk/mcp’s (ratio to it)',
          measured: p50VsAiSdk.median,
          limit: TARGET_RATIO,
          met: p50VsAiSdk.median <= TARGET_RATIO,
        });
      }
    }
  }

  return {
    id: 'per-call-overhead',
    title: '1. Per-call overhead',
    what: `${calls.toLocaleString('en')} sequential calls of a trivial \`echo\` tool after ${warmupCalls} warm-up calls, one fresh process per measurement; latency of each call in ms. mcp-host goes through \`Host.callTool\` (route; authorise against the permission rules, server trust, annotations, its trust store and the hidden-content check; call with a timeout; map the result and apply the output budget; write the JSONL audit record), with a throw-away state folder of its own; the baseline is the raw v2 SDK \`Client.callTool\` on the SDK's own transports. mcp-use starts its servers from their config and has no in-memory transport, so it has a stdio row only.`,
    columns: ['transport', 'client', 'p50 ms', 'p99 ms', 'p50 vs raw SDK', 'p99 vs raw SDK', 'p50 vs @ai-sdk/mcp'],
    rows,
    targets,
    data: runs,
  };
}
