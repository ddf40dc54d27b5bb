/**
 * Benchmark 8 — keystroke to echo in `mcp-host chat`. The chat's line editor runs in a child process on a stream that
 * stands for the terminal (bench/workers/keystroke-echo-worker.mjs); each sample is one key, from written to echoed. The
 * terminal emulator's own drawing is not included.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { figure, spread } from '../lib/format.mjs';
import { benchDirectory } from '../lib/paths.mjs';
import { quantile, summarise } from '../lib/statistics.mjs';

const LIMIT_MS = 16;

export async function runKeystrokeEcho({ node, repetitions, keys, log }) {
  const samples = [];
  for (let repetition = 1; repetition <= repetitions; repetition += 1) {
    const output = execFileSync(node, [join(benchDirectory, 'workers', 'keystroke-echo-worker.mjs'), String(keys)], {
      encoding: 'utf8',
    });
    const run = JSON.parse(output);
    samples.push(...run);
    log(
      `  keystroke echo ${repetition}/${repetitions}: median ${figure(quantile(run, 0.5))} ms, p99 ${figure(quantile(run, 0.99))} ms`,
    );
  }
  const summary = summarise(samples);
  const p99 = quantile(samples, 0.99);
  return {
    id: 'keystroke-echo',
    title: '8. Keystroke to echo in chat',
    what: `${repetitions} runs of ${keys} keys typed into the chat's line editor (node:readline in terminal mode, the chat's output and completer) on a stream standing for the terminal, in a child process; each sample is one key from written to echoed. The terminal's own drawing is not included.`,
    columns: ['keys', 'ms (median, spread)', 'p99 ms'],
    rows: [[String(samples.length), spread(summary), figure(p99)]],
    summary: ['The echo is written by readline as the key arrives; nothing of the host runs in between.'],
    targets: [
      {
        description: `keystroke to echo ≤ ${LIMIT_MS} ms (p99)`,
        measured: p99,
        limit: LIMIT_MS,
        unit: ' ms',
        met: p99 <= LIMIT_MS,
      },
    ],
    data: { samples: samples.length, median: summary.median, p99 },
  };
}
