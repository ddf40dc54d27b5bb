/**
 * The load of benchmark 10: `clients` official v2 SDK clients over Streamable HTTP, all connected first, then each
 * making `calls` sequential `echo` calls at once with the others. Reports every call's latency summarised, and
 * the wall time from the first call to the last answer.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { reportResult, workerParameters } from '../lib/run-worker.mjs';

const { url, token, tool, clients: clientCount, calls } = workerParameters();
const headers = token ? { authorization: `Bearer ${token}` } : {};

const clients = await Promise.all(
  Array.from({ length: clientCount }, async (_, index) => {
    const client = new Client({ name: `load-${index}`, version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
    return client;
  }),
);
// One call each first: sessions, catalogs and JIT warmed before anything is timed.
await Promise.all(clients.map((client) => client.callTool({ name: tool, arguments: { text: 'warm' } })));

const latencies = new Float64Array(clientCount * calls);
let failures = 0;
const started = performance.now();
await Promise.all(
  clients.map(async (client, index) => {
    for (let call = 0; call < calls; call += 1) {
      const before = performance.now();
      const result = await client.callTool({ name: tool, arguments: { text: `call ${call}` } });
      latencies[index * calls + call] = performance.now() - before;
      if (result.isError) failures += 1;
    }
  }),
);
const wallMs = performance.now() - started;
// Ending each session (DELETE) as a well-behaved client does, so that the gateway holds none of them afterwards.
await Promise.all(
  clients.map(async (client) => {
    await client.transport?.terminateSession().catch(() => undefined);
    await client.close().catch(() => undefined);
  }),
);

const sorted = [...latencies].sort((a, b) => a - b);
const at = (fraction) => sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))];
reportResult({ calls: sorted.length, failures, wallMs, p50Ms: at(0.5), p99Ms: at(0.99) });
