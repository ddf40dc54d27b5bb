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
/**
 * Measured on the project's own runtime too, beside the comparison runtime: the peers need Node 22, but mcp-host and
 * the raw SDK run on Node 20, whose engine makes some of the same code far slower (a key added to an object copied
 * by a leading spread costs microseconds there, nanoseconds on 22).
 */
const PROJECT_RUNTIME_SUBJECTS = ['mcp-host', 'sdk'];
const ON_PROJECT_RUNTIME = '@project';
/** Goal: mcp-host's p50 over stdio no more than @ai-sdk/mcp's, the fastest peer when the goal was set. */
const TARGET_RATIO = 1;

export async function runPerCallOverhead({ node, projectNode, repetitions, calls, warmupCalls, log }) {
  const runs = {};
  const measure = async (repetition, binary, subject, transport, key) => {
    const result = await runWorker(binary, 'per-call-worker.mjs', { subject, transport, calls, warmupCalls });
    addToSeries(runs, key, result);
    log(
      `  per-call ${repetition}/${repetitions} ${key}: p50 ${result.p50Ms.toFixed(3)} ms, p99 ${result.p99Ms.toFixed(3)} ms`,
    );
  };
  for (let repetition = 1; repetition <= repetitions; repetition += 1) {
    for (const transport of TRANSPORTS) {
      for (const subject of SUBJECTS) {
        if (!supportsTransport(subject, transport)) continue;
        await measure(repetition, node.binary, subject, transport, `${subject}/${transport}`);
      }
      for (const subject of PROJECT_RUNTIME_SUBJECTS) {
        const key = `${subject}${ON_PROJECT_RUNTIME}/${transport}`;
        await measure(repetition, projectNode.binary, subject, transport, key);
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
    rows.push(...projectRuntimeRows(runs, transport, projectNode.version));
  }

  return {
    id: 'per-call-overhead',
    title: '1. Per-call overhead',
    what: `${calls.toLocaleString('en')} sequential calls of a trivial \`echo\` tool after ${warmupCalls} warm-up calls, one fresh process per measurement; latency of each call in ms. mcp-host goes through \`Host.callTool\` (route; authorize against the permission rules, server trust, annotations, its trust store and the hidden-content check; call with a timeout; map the result and apply the output budget; write the JSONL audit record), with a throw-away state folder of its own; the baseline is the raw v2 SDK \`Client.callTool\` on the SDK's own transports. mcp-use starts its servers from their config and has no in-memory transport, so it has a stdio row only. The rows marked with the project's runtime run mcp-host and the raw SDK on it (the peers need Node 22); their ratios are to the raw SDK on that runtime, not comparable with @ai-sdk/mcp's.`,
    columns: ['transport', 'client', 'p50 ms', 'p99 ms', 'p50 vs raw SDK', 'p99 vs raw SDK', 'p50 vs @ai-sdk/mcp'],
    rows,
    targets,
    data: runs,
  };
}

/** mcp-host and the raw SDK on the project's runtime, each against the raw SDK there. */
function projectRuntimeRows(runs, transport, version) {
  const baseline = runs[`sdk${ON_PROJECT_RUNTIME}/${transport}`];
  return PROJECT_RUNTIME_SUBJECTS.map((subject) => {
    const series = runs[`${subject}${ON_PROJECT_RUNTIME}/${transport}`];
    const isBaseline = subject === 'sdk';
    const versus = (pick) => ratio(summarise(pairedRatios(series.map(pick), baseline.map(pick))));
    return [
      transport,
      `${SUBJECT_LABELS[subject]}, Node ${version}`,
      spread(summarise(series.map((run) => run.p50Ms))),
      spread(summarise(series.map((run) => run.p99Ms))),
      isBaseline ? 'baseline (this runtime)' : versus((run) => run.p50Ms),
      isBaseline ? 'baseline (this runtime)' : versus((run) => run.p99Ms),
      '—',
    ];
  });
}
