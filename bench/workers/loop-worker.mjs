/**
 * Benchmark 4, one measurement: a scripted conversation of `turns` model turns, each but the last
 * asking for one `echo` call, through `Host.run` against an in-process server. Reports the host's own
 * time per turn (wall time less the model's time and the tools' round trips) and memory after a full
 * GC at the sample turns, with the size of the transcript so far. Run with --expose-gc.
 * Parameters: { turns, sampleTurns }.
 */
import { InMemoryTransport } from '@modelcontextprotocol/client';
import { benchServerConfig, hostConfig } from '../lib/host-config.mjs';
import { distUrl } from '../lib/paths.mjs';
import { reportResult, workerParameters } from '../lib/run-worker.mjs';
import { createBenchModel } from '../lib/scripted-model.mjs';
import { createStateFolder } from '../lib/state-folder.mjs';
import { timeToolCalls } from '../lib/timed-transport.mjs';
import { createBenchServer } from '../servers/bench-tools.mjs';

if (typeof globalThis.gc !== 'function') throw new Error('the loop benchmark worker needs node --expose-gc');
const { turns, sampleTurns } = workerParameters();
const { createHost } = await import(new URL('index.js', distUrl).href);

const script = {
  scenarios: [
    {
      turns: [
        ...Array.from({ length: turns - 1 }, (_, index) => ({
          toolCalls: [{ name: 'bench__echo', arguments: { text: `turn ${index + 1}` } }],
        })),
        { text: 'done' },
      ],
    },
  ],
};
const model = await createBenchModel(script);
const server = createBenchServer('bench');
const stateFolder = createStateFolder();
let transport;
const host = await createHost({
  stateDir: stateFolder.path,
  config: hostConfig([benchServerConfig('bench')]),
  provider: model,
  maxTurns: turns,
  transportFactory: () => {
    const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
    void server.connect(serverEnd);
    transport = timeToolCalls(clientEnd);
    return transport;
  },
});

const hostMsByTurn = new Float64Array(turns + 1);
const samples = [];
let samplingMs = 0;
let previousHostMs = 0;
let started = 0;
const sample = (turn) => {
  const before = performance.now();
  globalThis.gc();
  const memory = process.memoryUsage();
  samples.push({
    turn,
    rssBytes: memory.rss,
    heapUsedBytes: memory.heapUsed,
    transcriptBytes: Buffer.byteLength(JSON.stringify(model.lastMessages ?? [])),
  });
  samplingMs += performance.now() - before;
};
const onEvent = (event) => {
  if (event.type !== 'turn-end') return;
  const hostMs = performance.now() - started - model.modelMs - transport.toolMs - samplingMs;
  hostMsByTurn[event.turn] = hostMs - previousHostMs;
  previousHostMs = hostMs;
  if (sampleTurns.includes(event.turn)) sample(event.turn);
};

try {
  globalThis.gc();
  const before = process.memoryUsage();
  started = performance.now();
  const result = await host.run('a long conversation', { onEvent });
  const wallMs = performance.now() - started;
  if (result.stopReason !== 'end' || result.turns !== turns || transport.toolCalls !== turns - 1) {
    throw new Error(
      `the run stopped "${result.stopReason}" after ${result.turns} turns and ${transport.toolCalls} tool calls; expected ${turns} turns`,
    );
  }
  const meanOver = (first, last) => {
    let total = 0;
    for (let turn = first; turn <= last; turn += 1) total += hostMsByTurn[turn];
    return total / (last - first + 1);
  };
  reportResult({
    turns,
    wallMs,
    modelMs: model.modelMs,
    toolMs: transport.toolMs,
    hostMs: previousHostMs,
    hostMsPerTurn: previousHostMs / turns,
    hostMsPerTurnAt: Object.fromEntries(
      sampleTurns.map((turn) => [turn, meanOver(Math.max(1, turn - Math.min(9, turn - 1)), turn)]),
    ),
    memoryBefore: { rssBytes: before.rss, heapUsedBytes: before.heapUsed },
    samples,
    node: process.version,
  });
} finally {
  await host.close();
  await server.close();
  stateFolder.remove();
}
