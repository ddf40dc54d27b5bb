/**
 * Benchmark 2: one model turn asking for `calls` calls of `sleep(sleepMs)` at once, over stdio, for
 * every case in `cases`. mcp-host runs the whole turn through `Host.run` with a scripted model (its
 * loop, its bound on parallel calls); the raw SDK and @ai-sdk/mcp issue the same calls at once, as the
 * AI SDK's `generateText` does with the tool calls of one step. Each case has its own client and
 * server; repetitions go round the cases in turn so that drift on a shared machine hits all alike.
 * Parameters: { cases: [{ key, subject, maxParallelCalls (number or null = the host's default) }],
 * calls, sleepMs, repetitions, warmups }.
 */
import { reportResult, workerParameters } from '../lib/run-worker.mjs';
import { createBenchModel } from '../lib/scripted-model.mjs';
import { connectSubject } from '../lib/subjects.mjs';

const { cases, calls, sleepMs, repetitions, warmups } = workerParameters();

async function prepare({ subject, maxParallelCalls }) {
  if (subject !== 'mcp-host') {
    const connection = await connectSubject(subject, { transport: 'stdio' });
    const runTurn = async () => {
      await Promise.all(Array.from({ length: calls }, () => connection.call('sleep', { ms: sleepMs })));
    };
    return { connection, runTurn };
  }
  const toolCalls = Array.from({ length: calls }, () => ({ name: 'bench__sleep', arguments: { ms: sleepMs } }));
  const model = await createBenchModel({ scenarios: [{ turns: [{ toolCalls }, { text: 'done' }] }] });
  const connection = await connectSubject('mcp-host', {
    transport: 'stdio',
    hostOptions: { provider: model, ...(maxParallelCalls ? { maxParallelCalls } : {}) },
  });
  const runTurn = async () => {
    let succeeded = 0;
    const result = await connection.host.run('sleep in parallel', {
      onEvent: (event) => {
        if (event.type === 'tool-call-end' && event.outcome === 'ok') succeeded += 1;
      },
    });
    if (result.stopReason !== 'end' || succeeded !== calls) {
      throw new Error(`mcp-host run stopped "${result.stopReason}" after ${succeeded} of ${calls} successful calls`);
    }
  };
  return { connection, runTurn };
}

const prepared = [];
try {
  for (const entry of cases) prepared.push({ ...entry, ...(await prepare(entry)), wallMs: [] });
  for (const entry of prepared) for (let index = 0; index < warmups; index += 1) await entry.runTurn();
  for (let repetition = 0; repetition < repetitions; repetition += 1) {
    for (const entry of prepared) {
      const started = performance.now();
      await entry.runTurn();
      entry.wallMs.push(performance.now() - started);
    }
  }
  reportResult({
    calls,
    sleepMs,
    wallMs: Object.fromEntries(prepared.map((entry) => [entry.key, entry.wallMs])),
    node: process.version,
  });
} finally {
  await Promise.all(prepared.map((entry) => entry.connection.close()));
}
