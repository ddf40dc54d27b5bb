/**
 * Benchmark 1, one measurement: `calls` sequential calls of the trivial `echo` tool through one
 * subject over one transport, after `warmupCalls` unmeasured ones. Reports p50/p99/mean latency.
 * Parameters: { subject, transport: 'stdio' | 'memory', calls, warmupCalls }.
 */
import { reportResult, workerParameters } from '../lib/run-worker.mjs';
import { quantile } from '../lib/statistics.mjs';
import { connectSubject } from '../lib/subjects.mjs';

const { subject, transport, calls, warmupCalls } = workerParameters();
const connection = await connectSubject(subject, { transport });
try {
  for (let index = 0; index < warmupCalls; index += 1) await connection.call('echo', { text: `warm ${index}` });
  const latencies = new Float64Array(calls);
  const started = performance.now();
  for (let index = 0; index < calls; index += 1) {
    const text = `call ${index}`;
    const before = performance.now();
    const answer = await connection.call('echo', { text });
    latencies[index] = performance.now() - before;
    if (answer !== text)
      throw new Error(`${subject} echo answered ${JSON.stringify(answer)} for ${JSON.stringify(text)}`);
  }
  const totalMs = performance.now() - started;
  reportResult({
    subject,
    transport,
    calls,
    p50Ms: quantile(latencies, 0.5),
    p99Ms: quantile(latencies, 0.99),
    meanMs: totalMs / calls,
    node: process.version,
  });
} finally {
  await connection.close();
}
