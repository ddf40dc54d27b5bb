/**
 * Benchmark 7, one measurement: a conversation of `turns` user turns through `host.conversation()`, each turn one
 * `echo` call and an answer, saved to its session file as it goes, with the window set to `contextTokens` so that
 * compaction keeps the transcript bounded. Reports heap and RSS after a full GC before the first turn, at the sample
 * turns and after the last, with the transcript's and the session file's size. Run with --expose-gc.
 * Parameters: { turns, sampleTurns, contextTokens }.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { InMemoryTransport } from '@modelcontextprotocol/client';
import { benchServerConfig, hostConfig } from '../lib/host-config.mjs';
import { distUrl } from '../lib/paths.mjs';
import { reportResult, workerParameters } from '../lib/run-worker.mjs';
import { createBenchModel } from '../lib/scripted-model.mjs';
import { createStateFolder } from '../lib/state-folder.mjs';
import { createBenchServer } from '../servers/bench-tools.mjs';

if (typeof globalThis.gc !== 'function') throw new Error('the conversation benchmark worker needs node --expose-gc');
const { turns, sampleTurns, contextTokens } = workerParameters();
const { createHost } = await import(new URL('index.js', distUrl).href);

const scripted = await createBenchModel({
  scenarios: [
    { match: '^Summarise the conversation', turns: [{ text: 'The user sent numbered notes; each was echoed.' }] },
    {
      turns: [
        { toolCalls: [{ name: 'bench__echo', arguments: { text: 'an echoed note of some length. '.repeat(8) } }] },
        { text: 'Noted and echoed.' },
      ],
    },
  ],
});
// The script picks its answer by the assistant messages in the request; compaction changes their number, so the
// model is shown the current turn only (as a real model, it would see the whole request).
const model = {
  provider: scripted.provider,
  model: scripted.model,
  generate(request, options) {
    let start = request.messages.length - 1;
    while (start > 0 && request.messages[start].role !== 'user') start -= 1;
    return scripted.generate({ ...request, messages: request.messages.slice(start) }, options);
  },
};
const server = createBenchServer('bench');
const stateFolder = createStateFolder();
const host = await createHost({
  stateDir: stateFolder.path,
  config: { ...hostConfig([benchServerConfig('bench')]), contextTokens },
  provider: model,
  transportFactory: () => {
    const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
    void server.connect(serverEnd);
    return clientEnd;
  },
});

const memory = () => {
  globalThis.gc();
  const { rss, heapUsed } = process.memoryUsage();
  return { rssBytes: rss, heapUsedBytes: heapUsed };
};

try {
  const conversation = await host.conversation();
  const sessionFile = join(stateFolder.path, 'sessions', `${conversation.id}.jsonl`);
  const before = memory();
  const samples = [];
  let compactions = 0;
  let previousFirst;
  const started = performance.now();
  let sampledMs = 0;
  for (let turn = 1; turn <= turns; turn += 1) {
    let stop;
    for await (const event of conversation.send(`note ${turn}: ${'a few words of the note. '.repeat(6)}`)) {
      if (event.type === 'run-end') stop = event.stopReason;
    }
    if (stop !== 'end') throw new Error(`turn ${turn} stopped "${stop}"`);
    if (conversation.history[0] !== previousFirst) {
      if (previousFirst !== undefined) compactions += 1;
      previousFirst = conversation.history[0];
    }
    if (sampleTurns.includes(turn)) {
      const sampleStarted = performance.now();
      samples.push({
        turn,
        ...memory(),
        transcriptBytes: Buffer.byteLength(JSON.stringify(conversation.history)),
        sessionFileBytes: statSync(sessionFile).size,
      });
      sampledMs += performance.now() - sampleStarted;
    }
  }
  const wallMs = performance.now() - started - sampledMs;
  const after = memory();
  reportResult({
    turns,
    contextTokens,
    wallMs,
    msPerTurn: wallMs / turns,
    compactions,
    before,
    after,
    samples,
    node: process.version,
  });
} finally {
  await host.close();
  await server.close();
  stateFolder.remove();
}
