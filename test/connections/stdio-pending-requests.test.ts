/**
 * The stdio transport knows every request it has in flight until it is answered or cancelled, however many there
 * are: an answer that is not valid JSON-RPC fails even the oldest of more than a thousand at once. An answer nested
 * too deep is answered for only when a request waits for it; one for an id nobody waits for is refused in a
 * diagnostic worded as for a remote server, and nothing reaches the client in its place. The `__proto__` keys of an answer are kept however many
 * requests are in flight before it, and its JSON-RPC error is known to be the server's.
 */
import { Client, type JSONRPCMessage, ProtocolError } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { HostWrittenAnswers } from '../../src/connections/host-written-answers.js';
import { keepPrototypeKeysOfAnswers, namedBack } from '../../src/connections/keep-prototype-keys.js';
import { ProcessGroupStdioTransport } from '../../src/connections/process-group-stdio-transport.js';
import { RenamedAnswers } from '../../src/connections/renamed-answers.js';
import { ServerErrorAnswers } from '../../src/connections/server-error-answers.js';
import { fixtureServer, repoRoot } from '../helpers/project.js';

let open: ProcessGroupStdioTransport | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

async function connectTold(): Promise<{ client: Client; diagnostics: string[]; handedOn: JSONRPCMessage[] }> {
  const diagnostics: string[] = [];
  const transport = new ProcessGroupStdioTransport({
    command: process.execPath,
    args: [fixtureServer('answers-as-told.mjs')],
    env: { PATH: process.env.PATH ?? '' },
    cwd: repoRoot,
    onDiagnostic: (message) => diagnostics.push(message),
  });
  open = transport;
  const client = new Client({ name: 'pending-requests-test', version: '1.0.0' });
  await client.connect(transport);
  // Every message the transport hands the client, the host's error answers included.
  const handedOn: JSONRPCMessage[] = [];
  const receive = transport.onmessage!;
  transport.onmessage = (message) => {
    handedOn.push(message);
    receive(message);
  };
  return { client, diagnostics, handedOn };
}

describe.runIf(process.platform === 'linux')('requests in flight on a stdio connection', () => {
  it('fails the oldest of 1,500 calls in flight at once when its answer is not valid JSON-RPC', {
    timeout: 60_000,
  }, async () => {
    const { client } = await connectTold();
    const count = 1_500;
    const line = '{"jsonrpc":"2.0","id":"$ID","error":{"code":"oops","message":"bad"}}';
    const result = { content: [{ type: 'text', text: 'answered' }] };
    // Left to wait for it, the oldest call would outlast the test's own timeout.
    const calls = Array.from({ length: count }, () =>
      client.callTool({ name: 'held', arguments: { count, line, result } }, { timeout: 120_000 }).then(
        () => 'answered',
        (error: Error) => error.message,
      ),
    );
    const outcomes = await Promise.all(calls);
    expect(outcomes[0]).toMatch(
      /not valid JSON-RPC: the error's code is a string, not a number, so the host refused it/,
    );
    expect(outcomes.slice(1).every((outcome) => outcome === 'answered')).toBe(true);
  });

  it('refuses an answer nested too deep for an id nobody waits for without answering for it', {
    timeout: 30_000,
  }, async () => {
    const { client, diagnostics, handedOn } = await connectTold();
    const deep = (id: string) =>
      `{"jsonrpc":"2.0","id":${id},"result":{"value":${'['.repeat(10_000)}${']'.repeat(10_000)}}}`;
    const called = await client.callTool({
      name: 'raw',
      // The second id hides a zero-width space and a right-to-left override.
      arguments: {
        lines: [deep('987654'), deep('"x\\u200by\\u202e"')],
        result: { content: [{ type: 'text', text: 'answered' }] },
      },
    });
    // The stray lines were written before the call's answer, and lines are handed on in order.
    expect(called.content).toEqual([{ type: 'text', text: 'answered' }]);
    expect(handedOn.filter((message) => 'id' in message && typeof message.id !== 'number')).toEqual([]);
    expect(handedOn.filter((message) => 'id' in message && message.id === 987654)).toEqual([]);
    // Told as a remote server's are, the id's hidden characters as escapes.
    expect(diagnostics).toEqual([
      'sent an answer to request 987654, which nobody waits for, nested deeper than 128 levels; refused',
      'sent an answer to request "x\\u200by\\u202e", which nobody waits for, nested deeper than 128 levels; refused',
    ]);
  });

  it('keeps the __proto__ key of the answer to the oldest of 10,002 calls in flight', {
    timeout: 120_000,
  }, async () => {
    const { client } = await connectTold();
    keepPrototypeKeysOfAnswers(open!, new RenamedAnswers());
    const count = 10_002;
    const line = '{"jsonrpc":"2.0","id":"$ID","result":{"content":[],"structuredContent":{"__proto__":{"kept":true}}}}';
    const calls = Array.from({ length: count }, () =>
      client.callTool({ name: 'held', arguments: { count, line, result: { content: [] } } }, { timeout: 120_000 }),
    );
    const [oldest] = await Promise.all(calls);
    const structured = namedBack(oldest!.structuredContent) as object;
    expect(Object.getOwnPropertyDescriptor(structured, '__proto__')?.value).toEqual({ kept: true });
  });

  it("knows the error answer to the oldest of 10,002 calls in flight as the server's", {
    timeout: 120_000,
  }, async () => {
    const { client } = await connectTold();
    const errorAnswers = new ServerErrorAnswers(new HostWrittenAnswers());
    keepPrototypeKeysOfAnswers(open!, new RenamedAnswers(), errorAnswers);
    const count = 10_002;
    const line = '{"jsonrpc":"2.0","id":"$ID","error":{"code":-32001,"message":"the server says no"}}';
    const calls = Array.from({ length: count }, () =>
      client.callTool({ name: 'held', arguments: { count, line, result: { content: [] } } }, { timeout: 120_000 }),
    );
    const [oldest] = await Promise.allSettled(calls);
    const error = (oldest as PromiseRejectedResult).reason;
    expect(error).toBeInstanceOf(ProtocolError);
    expect(errorAnswers.take(error)).toEqual({ by: 'server' });
  });
});
