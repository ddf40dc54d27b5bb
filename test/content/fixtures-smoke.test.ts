/**
 * Each misbehaving fixture server starts (or fails as designed) and does its one bad thing, observed through
 * the official MCP client or, where the SDK hides it, through the raw process.
 */
import { readlinkSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { bundledFixture } from '../helpers/bundled-fixture.js';
import { isAlive, repoRoot } from '../helpers/project.js';
import { firstText, startRawSession, startSdkSession, stopAll, trackPid, waitFor } from './fixture-sessions.js';

afterEach(stopAll);

const MEBIBYTE = 1024 * 1024;

describe('counter', () => {
  it('echoes, sleeps and reports that sleeps ran in parallel', async () => {
    const { client } = await startSdkSession('counter');
    expect(firstText(await client.callTool({ name: 'echo', arguments: { text: 'hello' } }))).toBe('hello');
    const sleeps = await Promise.all(
      [150, 150, 150].map((ms) => client.callTool({ name: 'sleep', arguments: { ms } })),
    );
    expect(sleeps.map(firstText)).toEqual(['slept 150 ms', 'slept 150 ms', 'slept 150 ms']);
    const stats = JSON.parse(firstText(await client.callTool({ name: 'stats', arguments: {} })));
    expect(stats).toMatchObject({ calls: 4, inFlight: 0 });
    expect(stats.maxInFlight).toBeGreaterThanOrEqual(2);
  });

  it('exits when its stdin closes, even with a call still running', async () => {
    const session = startRawSession('counter');
    const stats = (await startLongSleep(session, 'stats')) as { result: { content: Array<{ text: string }> } };
    expect(JSON.parse(stats.result.content[0]?.text ?? '')).toMatchObject({ inFlight: 1 });
    await expectExitOnStdinClose(session);
  });
});

describe('flexible-server', () => {
  it('exits when its stdin closes, even with a sleep still running', async () => {
    const session = startRawSession({ script: bundledFixture(`${repoRoot}/test/fixtures/host/flexible-server.mjs`) });
    // Answered after the sleep began: the sleep's timer is pending when stdin closes.
    await startLongSleep(session, 'pid');
    await expectExitOnStdinClose(session);
  });
});

describe('hang', () => {
  it('never answers `hang`, and records the cancellation sent on timeout', async () => {
    const { client, stderr } = await startSdkSession('hang');
    await expect(client.callTool({ name: 'hang', arguments: {} }, { timeout: 300 })).rejects.toThrow(/timed out/i);
    await waitFor(() => /cancelled \d+/.test(stderr.text), 'the cancelled line on stderr');
    const callId = /call (\d+) hang/.exec(stderr.text)?.[1];
    expect(stderr.text).toContain(`cancelled ${callId}`);
  });

  it('sends progress notifications every 200 ms, then answers', async () => {
    const { client } = await startSdkSession('hang');
    const progress: number[] = [];
    const result = await client.callTool(
      { name: 'slow_progress', arguments: { seconds: 1 } },
      { onprogress: (update) => progress.push(update.progress) },
    );
    expect(progress.length).toBeGreaterThanOrEqual(3);
    expect(progress).toEqual(progress.map((_, index) => index + 1));
    expect(firstText(result)).toBe(`done after ${progress.length} progress notifications`);
  });
});

describe('crash-mid-call', () => {
  it('exits with code 3 mid-call after a line on stderr', async () => {
    const session = startRawSession('crash-mid-call');
    await session.initialize();
    session.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'exit_mid_call', arguments: {} } });
    expect(await session.closed).toEqual({ code: 3, signal: null });
    expect(session.stderr.text).toContain('exiting with code 3 in the middle of a call');
    expect(session.lines.some((line) => line.includes('"id":1'))).toBe(false);
  });

  it('kills itself with SIGKILL mid-call', async () => {
    const session = startRawSession('crash-mid-call');
    await session.initialize();
    session.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'sigkill_mid_call', arguments: {} } });
    expect(await session.closed).toEqual({ code: null, signal: 'SIGKILL' });
    expect(session.stderr.text).toContain('killing myself with SIGKILL');
  });

  it('fails the pending call of an MCP client when it exits', async () => {
    const { client } = await startSdkSession('crash-mid-call');
    expect(firstText(await client.callTool({ name: 'ping', arguments: {} }))).toMatch(/^pong \d+$/);
    await expect(client.callTool({ name: 'exit_mid_call', arguments: {} })).rejects.toThrow(/closed/i);
  });
});

describe('stdout-noise', () => {
  it('writes a banner and a JSON log line to stdout around its JSON-RPC messages', async () => {
    const session = startRawSession('stdout-noise');
    await session.initialize();
    expect(session.lines[0]).toBe('Noisy server 1.0 — ready on stdio');
    session.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } });
    const answer = await session.response(1);
    expect(answer.result).toEqual({ content: [{ type: 'text', text: 'hi' }] });
    const answerIndex = session.lines.findIndex((line) => line.includes('"id":1'));
    expect(session.lines[answerIndex - 1]).toBe('{"level":"info","message":"echo called"}');
  });

  it('still serves an MCP client, which reports the JSON log line as an error', async () => {
    const { client, transportErrors } = await startSdkSession('stdout-noise');
    expect(firstText(await client.callTool({ name: 'echo', arguments: { text: 'hi' } }))).toBe('hi');
    expect(transportErrors.length).toBeGreaterThanOrEqual(1);
  });
});

describe('stderr-flood', () => {
  it('writes FLOOD_MB megabytes to stderr before it answers initialize, then serves', async () => {
    // 5 MB is eighty times what a pipe holds, so the fixture has to wait for the reader as the default 50 MB does.
    const { client, stderr } = await startSdkSession('stderr-flood', { env: { FLOOD_MB: '5' } });
    // The answer to initialize (stdout) can be read before the end of the flood (stderr, another pipe).
    await waitFor(() => stderr.text.includes('flood done'), 'the end of the flood on stderr');
    expect(stderr.bytes).toBeGreaterThanOrEqual(5 * MEBIBYTE);
    expect(firstText(await client.callTool({ name: 'ping', arguments: {} }))).toBe('pong');
  });
});

describe('big-result', () => {
  it('returns a 5 MB text to an MCP client allowed that much', { timeout: 120_000 }, async () => {
    const { client } = await startSdkSession('big-result', { maxBufferSize: 16 * MEBIBYTE });
    const text = firstText(await client.callTool({ name: 'big_text', arguments: { megabytes: 5 } }));
    expect(text.length).toBe(5 * MEBIBYTE);
    expect(text.startsWith('BEGIN big result\nline 0000001 ')).toBe(true);
    expect(text.endsWith('\nEND big result')).toBe(true);
  });

  it('returns a text past the SDK’s default 10 MB buffer as one JSON-RPC line', { timeout: 60_000 }, async () => {
    // Read raw: the SDK's stdio read buffer copies the whole buffer for every 64 KB piece; this reader is linear.
    // 16 MB is past that default as a 50 MB text is, at a third of the cost.
    const megabytes = 16;
    const session = startRawSession('big-result');
    await session.initialize();
    session.send({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'big_text', arguments: { megabytes } },
    });
    const answer = (await session.response(1, 50_000)) as { result: { content: Array<{ text: string }> } };
    const text = answer.result.content[0]?.text ?? '';
    expect(text.length).toBe(megabytes * MEBIBYTE);
    expect(text.endsWith('\nEND big result')).toBe(true);
    expect(session.stdoutBytes()).toBeGreaterThan(megabytes * MEBIBYTE);
  });

  it('can return one long line without newlines', async () => {
    const { client } = await startSdkSession('big-result');
    const text = firstText(await client.callTool({ name: 'big_text', arguments: { megabytes: 1, singleLine: true } }));
    expect(text.length).toBe(MEBIBYTE);
    expect(text.slice('BEGIN big result\n'.length, -'\nEND big result'.length)).toMatch(/^x+$/);
  });
});

describe('huge-line', () => {
  it('answers a call with a line that never ends', { timeout: 60_000 }, async () => {
    const megabytes = 40;
    const session = startRawSession('huge-line', { env: { HUGE_LINE_MB: String(megabytes) }, maxLineBytes: MEBIBYTE });
    await session.initialize();
    session.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'huge', arguments: {} } });
    await waitFor(() => session.stderr.text.includes(`huge line written ${megabytes} MB`), 'the huge line', 30_000);
    await waitFor(() => session.stdoutBytes() > megabytes * MEBIBYTE, 'all of the huge line', 30_000);
    expect(session.oversizedLine()).toBe(true);
    expect(session.lines.some((line) => line.includes('"id":1'))).toBe(false);
  });

  it('can write the endless line as soon as it starts', { timeout: 60_000 }, async () => {
    const session = startRawSession('huge-line', {
      env: { HUGE_LINE_AT: 'start', HUGE_LINE_MB: '8' },
      maxLineBytes: MEBIBYTE,
    });
    await waitFor(() => session.stderr.text.includes('huge line written 8 MB'), 'the huge line', 30_000);
    await waitFor(() => session.stdoutBytes() > 8 * MEBIBYTE, 'all of the huge line', 30_000);
    expect(session.lines).toEqual([]);
    expect(session.oversizedLine()).toBe(true);
  });

  it('makes the SDK client fail with its buffer size error', async () => {
    // A buffer of 1 MB, the line twice that: past the SDK's default of 10 MB, its read buffer copies itself whole
    // at every 64 KB piece, which cost seconds of CPU and proved nothing more.
    const { client, transportErrors } = await startSdkSession('huge-line', {
      env: { HUGE_LINE_MB: '2' },
      maxBufferSize: MEBIBYTE,
    });
    await expect(client.callTool({ name: 'huge', arguments: {} })).rejects.toThrow();
    expect(transportErrors.map((error) => error.message).join('\n')).toMatch(/exceeded maximum size/);
  });
});

describe('list-changed-storm', () => {
  it('sends 200 list_changed notifications and counts the re-listings that follow', async () => {
    const { client } = await startSdkSession('list-changed-storm');
    let notifications = 0;
    client.setNotificationHandler('notifications/tools/list_changed', () => {
      notifications++;
    });
    expect(firstText(await client.callTool({ name: 'storm', arguments: {} }))).toMatch(
      /^sent 200 notifications\/tools\/list_changed in \d+ ms$/,
    );
    expect(notifications).toBe(200);
    await client.listTools();
    const counts = JSON.parse(firstText(await client.callTool({ name: 'list_count', arguments: {} })));
    expect(counts).toEqual({ toolsListRequests: 1, toolsListRequestsSinceStorm: 1, notificationsSent: 200 });
  });
});

describe('slow-start', () => {
  it('answers initialize only after START_DELAY_MS', async () => {
    const started = Date.now();
    const { client, stderr } = await startSdkSession('slow-start', { env: { START_DELAY_MS: '600' } });
    // A lower bound only: the server cannot answer before its delay has passed.
    expect(Date.now() - started).toBeGreaterThanOrEqual(600);
    expect(stderr.text).toContain('starting in 600 ms');
    expect(firstText(await client.callTool({ name: 'ping', arguments: {} }))).toBe('pong');
  });
});

describe('spawn-grandchild', () => {
  it('leaves its grandchild running when only the server process is stopped', async () => {
    const { client, stderr, pid } = await startSdkSession('spawn-grandchild');
    await waitFor(() => /grandchild \d+/.test(stderr.text), 'the grandchild line');
    const grandchild = Number(/grandchild (\d+)/.exec(stderr.text)?.[1]);
    trackPid(grandchild);
    const pids = JSON.parse(firstText(await client.callTool({ name: 'pids', arguments: {} })));
    expect(pids).toEqual({ server: pid, grandchild });
    await client.close();
    await waitFor(() => !isAlive(pid), 'the server to exit');
    expect(isAlive(grandchild)).toBe(true);
  });

  it.runIf(process.platform === 'linux')(
    'with GRANDCHILD_STDIO=inherit, keeps the server’s stdout open after the server is gone',
    async () => {
      const session = startRawSession('spawn-grandchild', { env: { GRANDCHILD_STDIO: 'inherit' } });
      await waitFor(() => /grandchild \d+/.test(session.stderr.text), 'the grandchild line');
      const grandchild = Number(/grandchild (\d+)/.exec(session.stderr.text)?.[1]);
      trackPid(grandchild);
      // The grandchild holds the very pipe (a socket pair, as Node makes them) the server’s stdout is: while it runs,
      // that pipe cannot reach its end.
      const stdoutPipe = readlinkSync(`/proc/${session.child.pid}/fd/1`);
      expect(stdoutPipe).toMatch(/^(pipe|socket):\[\d+\]$/);
      expect(readlinkSync(`/proc/${grandchild}/fd/1`)).toBe(stdoutPipe);
      session.child.kill('SIGKILL');
      expect(await session.exit).toEqual({ code: null, signal: 'SIGKILL' });
      expect(readlinkSync(`/proc/${grandchild}/fd/1`)).toBe(stdoutPipe);
      expect(session.stdoutEnded()).toBe(false);
      process.kill(grandchild, 'SIGKILL');
      await waitFor(() => session.stdoutEnded(), 'stdout to end once the grandchild is gone');
    },
  );
});

describe('wrong-protocol', () => {
  it('answers initialize with protocol version 1999-01-01, which the client refuses', async () => {
    await expect(startSdkSession('wrong-protocol')).rejects.toThrow(/1999-01-01/);
    const session = startRawSession('wrong-protocol');
    const answer = (await session.initialize()) as { result: { protocolVersion: string } };
    expect(answer.result.protocolVersion).toBe('1999-01-01');
    expect(session.stderr.text).toMatch(/answered initialize \(client asked for [\d-]+\) with 1999-01-01/);
  });
});

describe('fails-to-start', () => {
  it('writes an error to stderr and exits with code 1 at once', async () => {
    const session = startRawSession('fails-to-start');
    expect(await session.closed).toEqual({ code: 1, signal: null });
    expect(session.stderr.text).toContain('fatal: cannot open configuration file');
    expect(session.stdoutBytes()).toBe(0);
    await expect(startSdkSession('fails-to-start')).rejects.toThrow(/closed/i);
  });
});

describe('idempotent-flaky', () => {
  it('hangs on the first call of each tool and answers the second', async () => {
    const { client, stderr } = await startSdkSession('idempotent-flaky');
    const { tools } = await client.listTools();
    const annotations = Object.fromEntries(tools.map((tool) => [tool.name, tool.annotations]));
    expect(annotations.lookup).toMatchObject({ readOnlyHint: true, idempotentHint: true });
    expect(annotations.record).toMatchObject({ readOnlyHint: false, idempotentHint: false });

    await expect(client.callTool({ name: 'lookup', arguments: { key: 'a' } }, { timeout: 300 })).rejects.toThrow(
      /timed out/i,
    );
    expect(firstText(await client.callTool({ name: 'lookup', arguments: { key: 'a' } }))).toBe('value of a (call 2)');
    await expect(client.callTool({ name: 'record', arguments: { entry: 'x' } }, { timeout: 300 })).rejects.toThrow(
      /timed out/i,
    );
    expect(firstText(await client.callTool({ name: 'record', arguments: { entry: 'x' } }))).toBe('recorded x (call 2)');
    const counts = JSON.parse(firstText(await client.callTool({ name: 'call_count', arguments: {} })));
    expect(counts).toEqual({ lookup: 2, record: 2 });
    await waitFor(() => (stderr.text.match(/cancelled \d+/g) ?? []).length === 2, 'two cancelled lines');
  });
});

type RawSession = ReturnType<typeof startRawSession>;

/** Starts a ten-minute `sleep` call (id 1), then calls `probe` (id 2) and returns its answer. */
async function startLongSleep(session: RawSession, probe: string): Promise<unknown> {
  await session.initialize();
  session.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'sleep', arguments: { ms: 600_000 } } });
  session.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: probe, arguments: {} } });
  return session.response(2);
}

/** Closes the server's stdin: it exits cleanly without answering the sleep still running. */
async function expectExitOnStdinClose(session: RawSession): Promise<void> {
  session.child.stdin.end();
  expect(await session.exit).toEqual({ code: 0, signal: null });
  expect(session.lines.some((line) => line.includes('"id":1'))).toBe(false);
}
