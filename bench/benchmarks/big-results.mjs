/**
 * Benchmark 5 — big results. One call answering 10, 20 and 50 MB of text over stdio through
 * mcp-host (and 100 MB, whose peak memory has a target): the call's time and the process's peak memory, one fresh
 * process per measurement. The baseline for linear growth is the smallest size in the same run scaled up: a ratio of
 * 1.0× means exactly linear. The raw SDK and mcp-use at the smallest size are shown for reference.
 */
import { figure, megabytes, ratio, spread } from '../lib/format.mjs';
import { runWorker } from '../lib/run-worker.mjs';
import { addToSeries, pairedRatios, summarise } from '../lib/statistics.mjs';
import { SUBJECT_LABELS } from '../lib/subjects.mjs';

/** Goal: the process's peak resident memory at the largest size within this many times the payload. */
const PEAK_RSS_PER_PAYLOAD = 3;
const PEERS = ['sdk', 'mcp-use'];

export async function runBigResults({ node, repetitions, sizes, log }) {
  const runs = {};
  const smallest = sizes[0];
  const largest = sizes.at(-1);
  const plan = [
    ...sizes.map((megabytesAsked) => ['mcp-host', megabytesAsked]),
    ...PEERS.map((peer) => [peer, smallest]),
  ];
  for (let repetition = 1; repetition <= repetitions; repetition += 1) {
    for (const [subject, megabytesAsked] of plan) {
      const result = await runWorker(node, 'big-result-worker.mjs', { subject, megabytes: megabytesAsked });
      const key = `${subject}/${megabytesAsked}`;
      addToSeries(runs, key, result);
      log(
        `  big ${repetition}/${repetitions} ${key} MB: ${figure(result.callMs)} ms, peak RSS ${figure(megabytes(result.peakRssBytes))} MB`,
      );
    }
  }
  const growth = (run) => run.peakRssBytes - run.rssBeforeBytes;
  const rows = [];
  for (const [subject, megabytesAsked] of plan) {
    const series = runs[`${subject}/${megabytesAsked}`];
    const reference = runs[`${subject}/${smallest}`];
    const scale = megabytesAsked / smallest;
    const timeLinear = summarise(
      pairedRatios(
        series.map((run) => run.callMs),
        reference.map((run) => run.callMs * scale),
      ),
    );
    const memoryLinear = summarise(
      pairedRatios(
        series.map(growth),
        reference.map((run) => growth(run) * scale),
      ),
    );
    const isReference = megabytesAsked === smallest;
    rows.push([
      SUBJECT_LABELS[subject],
      `${megabytesAsked} MB`,
      spread(summarise(series.map((run) => run.callMs))),
      spread(summarise(series.map((run) => run.callMs / megabytesAsked))),
      isReference ? 'baseline' : ratio(timeLinear),
      spread(summarise(series.map((run) => megabytes(run.peakRssBytes)))),
      spread(summarise(series.map((run) => megabytes(growth(run))))),
      isReference ? 'baseline' : ratio(memoryLinear),
    ]);
  }
  const hostSmallest = summarise(runs[`mcp-host/${smallest}`].map((run) => run.callMs));
  const sdkSmallest = summarise(runs[`sdk/${smallest}`].map((run) => run.callMs));
  const mcpUseVsHost = summarise(
    pairedRatios(
      runs[`mcp-use/${smallest}`].map((run) => run.callMs),
      runs[`mcp-host/${smallest}`].map((run) => run.callMs),
    ),
  );
  const payloadBytes = largest * 1024 * 1024;
  const peakPerPayload = summarise(runs[`mcp-host/${largest}`].map((run) => run.peakRssBytes / payloadBytes));
  return {
    id: 'big-results',
    title: '5. Big results',
    what: `One call of \`big(N)\` (N × 1,048,576 characters of text in one content block) over stdio after a small warm-up call, one fresh process per measurement, ${repetitions} repetitions. Peak RSS is the process's maximum resident set (\`process.resourceUsage().maxRSS\`, read after the client has closed); growth is that peak less the RSS just before the call. "vs linear" divides by the ${smallest} MB figure of the same repetition scaled by size.`,
    columns: [
      'client',
      'size',
      'time ms',
      'ms per MB',
      'time vs linear',
      'peak RSS MB',
      'RSS growth MB',
      'growth vs linear',
    ],
    rows,
    summary: [
      `At ${smallest} MB the raw SDK takes ${figure(sdkSmallest.median / hostSmallest.median)}× as long as mcp-host. ${
        sdkSmallest.median > 1.5 * hostSmallest.median
          ? "The SDK's stdio read buffer concatenates every incoming chunk onto what it holds and searches it again for a newline, which is quadratic in the message size; mcp-host splits lines in linear time. "
          : ''
      }mcp-use (over the 1.x SDK) takes ${ratio(mcpUseVsHost)} as long as mcp-host. Larger sizes through the peers are left out to keep the run short.`,
      `At ${largest} MB mcp-host's peak resident memory is ${ratio(peakPerPayload)} the payload (${figure(megabytes(payloadBytes))} MB), the whole process included.`,
      `mcp-host handed back ${runs[`mcp-host/${sizes.at(-1)}`][0].returnedChars.toLocaleString('en')} characters of the ${sizes.at(-1)} MB result: its output budget cuts what the model sees and keeps the full text in its result store, written in the background (counted in the peak memory, not in the time). The raw SDK hands back the whole text.`,
    ],
    targets: [
      {
        description: `mcp-host: peak RSS of the process at ${largest} MB within ${PEAK_RSS_PER_PAYLOAD}× the payload`,
        measured: peakPerPayload.median,
        limit: PEAK_RSS_PER_PAYLOAD,
        met: peakPerPayload.median <= PEAK_RSS_PER_PAYLOAD,
      },
    ],
    data: runs,
  };
}
