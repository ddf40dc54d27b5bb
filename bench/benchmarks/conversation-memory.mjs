/**
 * Benchmark 7 — conversation memory. A scripted conversation of `turns` user turns through `host.conversation()`
 * (one `echo` call per turn, in-memory server, every message saved to the session file with an fsync), the window
 * set so that compaction runs again and again: memory after a full GC at the sample turns, which should stay flat
 * while the session file grows. Ratios compare each sample turn with the first sample turn of the same run.
 */
import { figure, megabytes, ratio, spread } from '../lib/format.mjs';
import { runWorker } from '../lib/run-worker.mjs';
import { summarise } from '../lib/statistics.mjs';

/** Heap at the last sample turn at most this many times the heap at the second: memory flat. */
const FLAT_HEAP_LIMIT = 1.2;

export async function runConversationMemory({ node, repetitions, turns, sampleTurns, contextTokens, log }) {
  const results = [];
  for (let repetition = 1; repetition <= repetitions; repetition += 1) {
    const result = await runWorker(
      node,
      'conversation-worker.mjs',
      { turns, sampleTurns, contextTokens },
      { nodeFlags: ['--expose-gc'], timeoutMs: 600_000 },
    );
    results.push(result);
    log(
      `  conversation ${repetition}/${repetitions}: heap ${figure(megabytes(result.before.heapUsedBytes))} MB before, ${figure(megabytes(result.after.heapUsedBytes))} MB after ${turns} turns; ${result.compactions} compactions; ${figure(result.msPerTurn)} ms/turn`,
    );
  }
  const first = sampleTurns[0];
  const settled = sampleTurns[1] ?? first;
  const last = sampleTurns.at(-1);
  const sampleOf = (result, turn) => result.samples.find((sample) => sample.turn === turn);
  const rows = sampleTurns.map((turn) => {
    const heap = summarise(results.map((result) => megabytes(sampleOf(result, turn).heapUsedBytes)));
    const heapRatio = summarise(
      results.map((result) => sampleOf(result, turn).heapUsedBytes / sampleOf(result, first).heapUsedBytes),
    );
    const rss = summarise(results.map((result) => megabytes(sampleOf(result, turn).rssBytes)));
    const transcript = summarise(results.map((result) => sampleOf(result, turn).transcriptBytes / 1024));
    const file = summarise(results.map((result) => sampleOf(result, turn).sessionFileBytes / 1024));
    return [
      String(turn),
      spread(heap),
      turn === first ? 'baseline' : ratio(heapRatio),
      spread(rss),
      spread(transcript),
      spread(file),
    ];
  });
  const flat = summarise(
    results.map((result) => sampleOf(result, last).heapUsedBytes / sampleOf(result, settled).heapUsedBytes),
  );
  return {
    id: 'conversation-memory',
    title: '7. Conversation memory',
    what: `A ${turns.toLocaleString('en')}-turn scripted conversation through \`host.conversation()\` (one \`echo\` call and one answer per turn, in-memory server), every message saved to the session file with an fsync, \`contextTokens\` ${contextTokens.toLocaleString('en')} so that older turns are compacted again and again; ${repetitions} runs, one process each. Memory is read after a full GC.`,
    columns: ['turn', 'heap used MB', `heap vs turn ${first}`, 'RSS MB', 'transcript KB (JSON)', 'session file KB'],
    rows,
    summary: [
      `Heap before the first turn ${spread(summarise(results.map((result) => megabytes(result.before.heapUsedBytes))), ' MB')}, after the last ${spread(summarise(results.map((result) => megabytes(result.after.heapUsedBytes))), ' MB')}; ${spread(summarise(results.map((result) => result.compactions)))} compactions; ${spread(summarise(results.map((result) => result.msPerTurn)), ' ms')} per turn (model scripted, fsync per message included).`,
    ],
    targets: [
      {
        description: `heap at turn ${last} within ${FLAT_HEAP_LIMIT}× of turn ${settled} (memory flat)`,
        measured: flat.median,
        limit: FLAT_HEAP_LIMIT,
        met: flat.median <= FLAT_HEAP_LIMIT,
      },
    ],
    data: results,
  };
}
