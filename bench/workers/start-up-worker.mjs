/**
 * Benchmark 3, one measurement in a fresh process: start `servers` stdio bench servers through one
 * subject and wait until every one is connected and its tools are listed. Modules are loaded before
 * the clock starts; the clock covers spawning, `initialize` and `tools/list`.
 * Parameters: { subject, servers, readyAfterMs }.
 */
import { reportResult, workerParameters } from '../lib/run-worker.mjs';
import { connectSubject, preloadSubject } from '../lib/subjects.mjs';

const { subject, servers, readyAfterMs } = workerParameters();
const serverNames = Array.from({ length: servers }, (_, index) => `bench${index + 1}`);
await preloadSubject(subject);
const started = performance.now();
const connection = await connectSubject(subject, { transport: 'stdio', serverNames, readyAfterMs });
const readyMs = performance.now() - started;
try {
  const expectedTools = 3 * servers;
  if (connection.toolCount !== expectedTools) {
    throw new Error(
      `${subject} listed ${connection.toolCount} tools across ${servers} servers; expected ${expectedTools}`,
    );
  }
  // One call to the last server proves it is really usable, not just listed.
  const answer = await connection.call('echo', { text: 'ready' }, serverNames.at(-1));
  if (answer !== 'ready') throw new Error(`${subject} echo answered ${JSON.stringify(answer)}`);
  reportResult({ subject, servers, readyAfterMs, readyMs, node: process.version });
} finally {
  await connection.close();
}
