/**
 * Benchmark 3 — start-up. Ten stdio servers through each client: time until every one is connected
 * and listed, against one server alone through the same client (the ten are the same program, so the
 * slowest single server alone is any one of them). Two kinds of server: as they come, whose start-up
 * is CPU work (Node start, module loading), and ones that serve no sooner than `readyAfterMs` after
 * they started, whose start-up is mostly waiting. The raw SDK starting the same ten at once shows
 * what the machine itself allows.
 */
import { figure, ratio, spread } from '../lib/format.mjs';
import { runWorker } from '../lib/run-worker.mjs';
import { addToSeries, pairedRatios, summarise } from '../lib/statistics.mjs';
import { SUBJECT_LABELS } from '../lib/subjects.mjs';

const SUBJECTS = ['mcp-host', 'sdk', 'ai-sdk', 'mcp-use'];
const TARGET_RATIO = 1.3;

export async function runStartUp({ node, repetitions, servers, waitingReadyAfterMs, log }) {
  const variants = [
    { key: 'cpu', readyAfterMs: 0, label: 'servers as they come (start-up is CPU work)' },
    {
      key: 'waiting',
      readyAfterMs: waitingReadyAfterMs,
      label: `servers ready ${waitingReadyAfterMs} ms after they start (start-up is waiting)`,
    },
  ];
  const runs = {};
  for (let repetition = 1; repetition <= repetitions; repetition += 1) {
    for (const variant of variants) {
      for (const subject of SUBJECTS) {
        for (const count of [1, servers]) {
          const result = await runWorker(node, 'start-up-worker.mjs', {
            subject,
            servers: count,
            readyAfterMs: variant.readyAfterMs,
          });
          const key = `${variant.key}/${subject}/${count}`;
          addToSeries(runs, key, result.readyMs);
          log(`  start-up ${repetition}/${repetitions} ${key}: ${figure(result.readyMs)} ms`);
        }
      }
    }
  }

  const rows = [];
  const targets = [];
  for (const variant of variants) {
    const floor = runs[`${variant.key}/sdk/${servers}`];
    for (const subject of SUBJECTS) {
      const single = runs[`${variant.key}/${subject}/1`];
      const many = runs[`${variant.key}/${subject}/${servers}`];
      const versusSingle = summarise(pairedRatios(many, single));
      const versusFloor = summarise(pairedRatios(many, floor));
      rows.push([
        variant.label,
        SUBJECT_LABELS[subject],
        spread(summarise(single)),
        spread(summarise(many)),
        ratio(versusSingle),
        subject === 'sdk' ? 'baseline' : ratio(versusFloor),
      ]);
      if (subject === 'mcp-host') {
        targets.push({
          description: `mcp-host: ${servers} servers within ${TARGET_RATIO}× of one alone — ${variant.label}`,
          measured: versusSingle.median,
          limit: TARGET_RATIO,
          met: versusSingle.median <= TARGET_RATIO,
        });
      }
    }
  }
  return {
    id: 'start-up',
    title: '3. Start-up',
    what: `Time from starting to connect until all ${servers} stdio servers are initialised and their tools listed (then one call to the last server proves it usable), one fresh process per measurement with modules already loaded, ${repetitions} repetitions interleaved. Ratios pair repetition i of each series.`,
    columns: [
      'servers',
      'client',
      '1 server ms',
      `${servers} servers ms`,
      `${servers} vs 1 alone`,
      `${servers} vs raw SDK's ${servers}`,
    ],
    rows,
    targets,
    data: runs,
  };
}
