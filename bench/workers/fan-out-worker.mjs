/**
 * Benchmark 2, one subject: one model turn asking for `calls` calls of `sleep(sleepMs)` at once, over
 * stdio to one server. mcp-host runs the whole turn through `Host.run` with a scripted model (its
 * loop, its bound on parallel calls); the raw SDK and @ai-sdk/mcp issue the same calls at once, as
 * the AI SDK's `generateText` does with the tool calls of one step. Wall time per repetition.
 * Parameters: { subject, calls, sleepMs, maxParallelCalls (number or null = the host's default),
 * repetitions, warmups }.
 */
import { reportResult, workerParameters } from '../lib/run-worker.mjs';
import { createBenchModel } from '../lib/scripted-model.mjs';
import { connectSubject } from '../lib/subjects.mjs';

const { subject, calls, sleepMs, maxParallelCalls, repetitions, warmups } = workerParameters();

let runTurn;
let connection;
if (subject === 'mcp-host') {
  const toolCalls = Array.from({ length: calls }, () => ({ name: 'bench__sleep', arguments: { ms: sleepMs } }));
  const model = await createBenchModel({ scenarios: [{ turns: [{ toolCalls }, { text: 'done' }] }] });
  connection = await connectSubject('mcp-host', {
    transport: 'stdio',
    hostOptions: { provider: model, ...(maxParallelCalls ? { maxParallelCalls } : {}) },
  });
  runTurn = async () => {
    let ended = 0;
    const result = await connection.host.run('sleep in parallel', {
      onEvent: (event) => {
        if (event.type === 'tool-call-end' && event.outcome === 'ok') ended += 1;
      },
    });
    if (result.stopReason !== 'end' || ended !== calls) {
      throw new Error(`mcp-host run stopped "${result.stopReason}" after ${ended} of ${calls} successful calls`);
    }
  };
} else {
  connection = await connectSubject(subject, { transport: 'stdio' });
  runTurn = async () => {
    await Promise.all(Array.from({ length: calls }, () => connection.call('sleep', { ms: sleepMs })));
  };
}

try {
  for (let index = 0; index < warmups; index += 1) await runTurn();
  const wallMs = [];
  for (let index = 0; index < repetitions; index += 1) {
    const started = performance.now();
    await runTurn();
    wallMs.push(performance.now() - started);
  }
  reportResult({ subject, calls, sleepMs, maxParallelCalls, wallMs, node: process.version });
} finally {
  await connection.close();
}
