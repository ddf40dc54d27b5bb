/**
 * Benchmark 5, one measurement in a fresh process: one call of `big(megabytes)` over stdio through one
 * subject, after a small warm-up call. Reports the call's time (until the result is in hand) and this
 * process's peak resident memory, read after the client has closed, so work a client finishes in the
 * background (mcp-host saving the full text of a cut result) counts too. The server's memory is its
 * own process's and not counted.
 * Parameters: { subject, megabytes }.
 */
import { reportResult, workerParameters } from '../lib/run-worker.mjs';
import { connectSubject } from '../lib/subjects.mjs';

const { subject, megabytes } = workerParameters();
const connection = await connectSubject(subject, { transport: 'stdio' });
let measured;
try {
  await connection.call('big', { megabytes: 0.01 });
  const rssBeforeBytes = process.memoryUsage().rss;
  const started = performance.now();
  const text = await connection.call('big', { megabytes });
  const callMs = performance.now() - started;
  const expectedChars = Math.round(megabytes * 1024 * 1024);
  if (subject === 'sdk' && text.length !== expectedChars) {
    throw new Error(`raw SDK big(${megabytes}) answered ${text.length} characters; expected ${expectedChars}`);
  }
  measured = { callMs, rssBeforeBytes, returnedChars: text.length };
} finally {
  await connection.close();
}
reportResult({
  subject,
  megabytes,
  ...measured,
  peakRssBytes: process.resourceUsage().maxRSS * 1024,
  node: process.version,
});
