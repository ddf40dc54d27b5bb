/**
 * Benchmark 4 — loop overhead and memory. A scripted conversation of `turns` turns in-process (one
 * `echo` call per turn against an in-memory server): the host's own time per turn, without the
 * model's time or the tools' round trips, and memory after a full GC at the sample turns, next to the
 * size of the transcript. Ratios compare each sample turn with the first sample turn of the same run.
 */
import { figure, megabytes, ratio, spread } from '../lib/format.mjs';
import { runWorker } from '../lib/run-worker.mjs';
import { summarise } from '../lib/statistics.mjs';

export async function runLoopOverhead({ node, repetitions, turns, sampleTurns, log }) {
  const results = [];
  for (let repetition = 1; repetition <= repetitions; repetition += 1) {
    const result = await runWorker(node, 'loop-worker.mjs', { turns, sampleTurns }, { nodeFlags: ['--expose-gc'] });
    results.push(result);
    log(
      `  loop ${repetition}/${repetitions}: host ${figure(result.hostMsPerTurn)} ms/turn, model ${figure(result.modelMs)} ms, tools ${figure(result.toolMs)} ms`,
    );
  }
  const first = sampleTurns[0];
  const sampleOf = (result, turn) => result.samples.find((sample) => sample.turn === turn);
  const rows = sampleTurns.map((turn) => {
    const hostMs = summarise(results.map((result) => result.hostMsPerTurnAt[turn]));
    const hostRatio = summarise(results.map((result) => result.hostMsPerTurnAt[turn] / result.hostMsPerTurnAt[first]));
    const rss = summarise(results.map((result) => megabytes(sampleOf(result, turn).rssBytes)));
    const heap = summarise(results.map((result) => megabytes(sampleOf(result, turn).heapUsedBytes)));
    const heapRatio = summarise(
      results.map((result) => sampleOf(result, turn).heapUsedBytes / sampleOf(result, first).heapUsedBytes),
    );
    const transcript = summarise(results.map((result) => sampleOf(result, turn).transcriptBytes / 1024));
    return [
      String(turn),
      spread(hostMs),
      turn === first ? 'baseline' : ratio(hostRatio),
      spread(rss),
      spread(heap),
      turn === first ? 'baseline' : ratio(heapRatio),
      spread(transcript),
    ];
  });
  const heapGrowthMb = summarise(
    results.map((result) =>
      megabytes(sampleOf(result, sampleTurns.at(-1)).heapUsedBytes - sampleOf(result, first).heapUsedBytes),
    ),
  );
  const transcriptGrowthKb = summarise(
    results.map(
      (result) =>
        (sampleOf(result, sampleTurns.at(-1)).transcriptBytes - sampleOf(result, first).transcriptBytes) / 1024,
    ),
  );
  return {
    id: 'loop-overhead',
    title: '4. Loop overhead and memory',
    what: `A ${turns.toLocaleString('en')}-turn scripted conversation through \`Host.run\` (one \`echo\` call per turn, in-memory server), ${repetitions} runs, one process each. Host time = wall time less the scripted model's time and the tool calls' round trips (request sent → response received); the per-turn figure is the mean over the ten turns up to the sample turn. Memory is read after a full GC.`,
    columns: [
      'turn',
      'host ms/turn',
      `vs turn ${first}`,
      'RSS MB',
      'heap used MB',
      `heap vs turn ${first}`,
      'transcript KB (JSON)',
    ],
    rows,
    summary: [
      `Host time over the whole run: ${spread(summarise(results.map((result) => result.hostMsPerTurn)), ' ms')} per turn; model (scripted) ${spread(summarise(results.map((result) => result.modelMs / turns)), ' ms')} and tool round trips ${spread(summarise(results.map((result) => result.toolMs / (turns - 1))), ' ms')} per turn.`,
      `Heap growth from turn ${first} to ${sampleTurns.at(-1)}: ${spread(heapGrowthMb, ' MB')}, while the transcript grew by ${spread(transcriptGrowthKb, ' KB')} of JSON.`,
    ],
    targets: [],
    data: results,
  };
}
