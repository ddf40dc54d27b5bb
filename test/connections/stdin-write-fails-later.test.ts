/**
 * A request whose write to a stdio server's stdin the pipe accepted and then failed (the server stopped reading, the
 * message waited behind a full pipe, and the server closed its input) fails at once, in the host's words, naming the
 * request, where it waited for its timeout. Later sends say the server closed its input, not that it is not running.
 */
import type { Writable } from 'node:stream';
import { Client, ProtocolError } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { toCallFailure } from '../../src/connections/describe-call-error.js';
import { HostWrittenAnswers } from '../../src/connections/host-written-answers.js';
import { keepPrototypeKeysOfAnswers } from '../../src/connections/keep-prototype-keys.js';
import { ProcessGroupStdioTransport } from '../../src/connections/process-group-stdio-transport.js';
import { RenamedAnswers } from '../../src/connections/renamed-answers.js';
import { ServerErrorAnswers } from '../../src/connections/server-error-answers.js';
import { fixtureServer, repoRoot } from '../helpers/project.js';
import { waitUntil } from '../helpers/wait-until.js';

/** Far longer than the test may take: a request that waited for it fails the test by the test's own limit. */
const LONG_TIMEOUT_MS = 120_000;
const TEST_TIMEOUT_MS = 60_000;

let open: ProcessGroupStdioTransport | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

/** The server's stdin as the transport writes it: only to see when the pipe is full. */
function stdinOf(transport: ProcessGroupStdioTransport): Writable {
  return (transport as unknown as { child: { stdin: Writable } }).child.stdin;
}

describe.runIf(process.platform === 'linux')('a write the pipe accepted and then failed', () => {
  it('fails its request at once with the host words naming it, not at its timeout', {
    timeout: TEST_TIMEOUT_MS,
  }, async () => {
    const hostWritten = new HostWrittenAnswers();
    const errorAnswers = new ServerErrorAnswers(hostWritten);
    const transport = new ProcessGroupStdioTransport({
      command: process.execPath,
      args: [fixtureServer('closes-stdin.mjs')],
      env: { PATH: process.env.PATH ?? '' },
      cwd: repoRoot,
      hostWritten,
    });
    open = transport;
    const client = new Client({ name: 'stdin-write-test', version: '1.0.0' });
    await client.connect(transport);
    // As the host's connection has it: which error answers are the host's own.
    keepPrototypeKeysOfAnswers(transport, new RenamedAnswers(), errorAnswers);
    client.onerror = () => undefined;
    await client.callTool({ name: 'close_stdin_on_signal', arguments: {} });

    // Notifications fill the pipe (and what the server's process reads ahead) until one waits in the host, part
    // written: a request sent now is accepted behind it, and fails only when the server closes its input.
    const stdin = stdinOf(transport);
    const filler = { jsonrpc: '2.0' as const, method: 'notifications/filler', params: { pad: 'x'.repeat(4_000) } };
    while (stdin.writableLength === 0) {
      void transport.send(filler).catch(() => undefined);
      // One a tick: sends in the same tick are held back to go out together.
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(stdin.writableLength).toBeLessThan(stdin.writableHighWaterMark);

    const started = performance.now();
    const filled = stdin.writableLength;
    const answered = client.callTool({ name: 'ping', arguments: {} }, { timeout: LONG_TIMEOUT_MS }).then(
      () => undefined,
      (error: unknown) => error,
    );
    // The server closes its input once the request waits behind the filler, however long filling the pipe took.
    await waitUntil(() => stdin.writableLength > filled, 'the request to wait behind the filler');
    process.kill(transport.pid!, 'SIGUSR2');
    const outcome = await answered;
    console.info(`the request failed ${Math.round(performance.now() - started)} ms after it was sent`);
    expect(outcome).toBeInstanceOf(ProtocolError);
    expect((outcome as Error).message).toContain(
      "the tools/call request did not reach the server: could not write to the server's stdin: it closed its input (write EPIPE)",
    );
    // As the call's failure is told: in the host's words, naming the server.
    const failure = toCallFailure(outcome, {
      server: 'cs',
      aborted: false,
      timeoutMs: LONG_TIMEOUT_MS,
      remote: false,
      exitOf: () => ({ exit: { reason: 'exited', description: 'exited' }, reported: false }),
      answeredBy: (error) => errorAnswers.take(error),
    });
    expect(failure.message).toBe(
      `server "cs" did not receive the tools/call request: could not write to the server's stdin: it closed its input (write EPIPE)`,
    );

    // The process runs on: the next request is told why it cannot be sent.
    await waitUntil(() => !stdin.writable, 'the server to close its input');
    await expect(client.callTool({ name: 'ping', arguments: {} })).rejects.toThrow(
      "could not write to the server's stdin: it closed its input",
    );
    expect(transport.exit).toBeUndefined();
  });
});
