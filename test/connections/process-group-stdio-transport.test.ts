/**
 * The stdio transport with real processes: the server runs in a process group of its own, and closing stops the
 * whole group — its child, and a process it left behind whose parent is gone (found by no parent link, only by the
 * group). A server that ignores SIGTERM is killed after the grace; stdout noise is reported and a message over the
 * size limit closes the connection with the reason.
 */
import { readFileSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { Client, type JSONRPCMessage } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ProcessGroupStdioTransport } from '../../src/connections/process-group-stdio-transport.js';
import { fixtureServerPath } from '../fixtures/servers/fixture-servers.js';
import { repoRoot } from '../helpers/project.js';
import { waitUntil } from '../helpers/wait-until.js';

/** State and process group of a process from /proc; undefined once it is gone. */
function procStat(pid: number): { state: string; ppid: number; pgid: number } | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { state: fields[0]!, ppid: Number(fields[1]), pgid: Number(fields[2]) };
}

/** Running: it exists and is not a zombie waiting to be reaped (a zombie runs nothing). */
function isRunning(pid: number): boolean {
  const stat = procStat(pid);
  return stat !== undefined && stat.state !== 'Z';
}

/** Every pid a test learnt of is killed at the end, whatever happened. */
const started = new Set<number>();
afterAll(() => {
  for (const pid of started) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone, as it should be.
    }
  }
});

function transportFor(script: string, options: { shutdownGraceMs?: number; maxMessageBytes?: number } = {}) {
  const diagnostics: string[] = [];
  const transport = new ProcessGroupStdioTransport({
    command: process.execPath,
    args: ['-e', script],
    env: { PATH: process.env.PATH ?? '' },
    cwd: repoRoot,
    onDiagnostic: (message) => diagnostics.push(message),
    ...options,
  });
  return { transport, diagnostics };
}

describe.runIf(process.platform === 'linux')('ProcessGroupStdioTransport', () => {
  describe('a server behind a shell wrapper, with a child and an orphan of its own', () => {
    let transport: ProcessGroupStdioTransport;
    let client: Client;
    let closed = false;
    let pids: { server: number; grandchild: number; orphan: number };

    beforeAll(async () => {
      // The subshell starts a process and exits at once: the process is left with no parent link to the server,
      // but in its process group. Then the shell becomes the server, which starts a child of its own.
      const orphan = `(exec "${process.execPath}" -e 'setInterval(() => {}, 1000)' </dev/null >/dev/null 2>&1 & echo "orphan $!" >&2)`;
      transport = new ProcessGroupStdioTransport({
        command: '/bin/sh',
        args: ['-c', `${orphan}; exec "${process.execPath}" "${fixtureServerPath('spawn-grandchild')}"`],
        env: { PATH: process.env.PATH ?? '' },
        cwd: repoRoot,
      });
      transport.onclose = () => {
        closed = true;
      };
      client = new Client({ name: 'transport-test', version: '1.0.0' });
      await client.connect(transport);
      started.add(transport.pid!);
      const answer = await client.callTool({ name: 'pids', arguments: {} });
      const reported = JSON.parse((answer.content as Array<{ text: string }>)[0]!.text) as {
        server: number;
        grandchild: number;
      };
      await waitUntil(() => /orphan \d+/.test(transport.stderr.tail()), 'the orphan line on stderr');
      pids = { ...reported, orphan: Number(/orphan (\d+)/.exec(transport.stderr.tail())![1]) };
      for (const pid of Object.values(pids)) started.add(pid);
    });

    afterAll(async () => {
      await client?.close();
    });

    it('carries MCP both ways: initialize and a tool call were answered by the server it started', () => {
      expect(pids.server).toBe(transport.pid);
      expect(client.getServerVersion()?.name).toBe('spawn-grandchild');
    });

    it('puts the server and everything it starts in a process group of its own', () => {
      const group = transport.pid!;
      for (const pid of Object.values(pids)) expect(procStat(pid)?.pgid, `pgid of ${pid}`).toBe(group);
      expect(procStat(process.pid)?.pgid).not.toBe(group);
      // The orphan is reachable only through the group: its parent is no longer the server.
      expect(procStat(pids.orphan)?.ppid).not.toBe(pids.server);
      expect(procStat(pids.grandchild)?.ppid).toBe(pids.server);
    });

    it('keeps what the server wrote on stderr', () => {
      expect(transport.stderr.tail()).toContain(`grandchild ${pids.grandchild}`);
    });

    it('on close stops the server, its child and the orphan, and says it closed', async () => {
      for (const pid of Object.values(pids)) expect(isRunning(pid), `${pid} before close`).toBe(true);
      await client.close();
      expect(closed).toBe(true);
      expect(transport.exit).toBeDefined();
      await waitUntil(() => !Object.values(pids).some(isRunning), 'every process of the group to end');
      await expect(transport.send({ jsonrpc: '2.0', method: 'ping', id: 1 })).rejects.toThrow(/not connected/);
    });
  });

  it('kills a server that ignores SIGTERM and the end of its stdin once the grace is over', async () => {
    const { transport } = transportFor(
      "process.on('SIGTERM', () => process.stderr.write('ignored SIGTERM\\n')); setInterval(() => {}, 1000); process.stderr.write('ready\\n');",
      { shutdownGraceMs: 200 },
    );
    await transport.start();
    started.add(transport.pid!);
    await waitUntil(() => transport.stderr.tail().includes('ready'), 'the server to be ready');
    await transport.close();
    expect(transport.exit).toEqual({ code: null, signal: 'SIGKILL' });
    expect(transport.stderr.tail()).toContain('ignored SIGTERM');
    expect(isRunning(transport.pid!)).toBe(false);
  });

  it('writes the first message of a tick at once and the others sent in the same tick in one write, in order', async () => {
    // Echoes every line it reads: each request comes back as a message from the server.
    const { transport } = transportFor(
      "require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => process.stdout.write(line + '\\n'));",
    );
    const received: JSONRPCMessage[] = [];
    const allBack = new Promise<void>((resolve) => {
      transport.onmessage = (message) => {
        received.push(message);
        if (received.length === 5) resolve();
      };
    });
    await transport.start();
    started.add(transport.pid!);
    const stdin = (transport as unknown as { child: { stdin: Writable } }).child.stdin;
    const writes = vi.spyOn(stdin, '_write');
    const batchedWrites = vi.spyOn(stdin as Required<Writable>, '_writev');
    const sent = [1, 2, 3, 4].map((id) => transport.send({ jsonrpc: '2.0', id, method: 'ping' }));
    // The first went out before `send` returned: a lone call waits for nothing.
    expect(writes).toHaveBeenCalledTimes(1);
    expect(batchedWrites).not.toHaveBeenCalled();
    await Promise.all(sent);
    await new Promise((resolve) => setImmediate(resolve));
    expect(batchedWrites).toHaveBeenCalledTimes(1);
    expect(batchedWrites.mock.calls[0]?.[0]).toHaveLength(3);
    // A later tick starts again with a write at once.
    await transport.send({ jsonrpc: '2.0', id: 5, method: 'ping' });
    expect(writes).toHaveBeenCalledTimes(2);
    await allBack;
    expect(received.map((message) => ('id' in message ? message.id : undefined))).toEqual([1, 2, 3, 4, 5]);
    expect(batchedWrites).toHaveBeenCalledTimes(1);
    await transport.close();
  });

  it('reports stdout noise, keeps a message glued to it, and closes on a message over the size limit', async () => {
    const notification = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { data: 'hi' } });
    const script = [
      `process.stdout.write('Starting up\\n');`,
      `process.stdout.write('Loading…' + ${JSON.stringify(notification)} + '\\n');`,
      `process.stdout.write('x'.repeat(5000) + '\\n');`,
      'setInterval(() => {}, 1000);',
    ].join(' ');
    const { transport, diagnostics } = transportFor(script, { maxMessageBytes: 1_000, shutdownGraceMs: 500 });
    const messages: JSONRPCMessage[] = [];
    const errors: Error[] = [];
    const closed = new Promise<void>((resolve) => {
      transport.onclose = resolve;
    });
    transport.onmessage = (message) => messages.push(message);
    transport.onerror = (error) => errors.push(error);
    await transport.start();
    started.add(transport.pid!);
    await closed;

    expect(diagnostics).toEqual([
      'wrote non-protocol output to stdout (ignored): "Starting up"',
      'wrote non-protocol output to stdout (ignored): "Loading…"',
    ]);
    expect(messages).toEqual([JSON.parse(notification)]);
    expect(errors.map((error) => error.message)).toEqual([transport.closeReason]);
    expect(transport.closeReason).toMatch(
      /^sent a message larger than the maximum of 1000 bytes \(\d+ bytes so far\), so the host closed the connection/,
    );
    await waitUntil(() => !isRunning(transport.pid!), 'the server to end');
  });

  it('lets many sends wait on a full pipe with one shared drain wait, and delivers them in order once it reads', async () => {
    // Reads nothing until SIGUSR2; then echoes the number of every message it reads, in order.
    const script = [
      `process.on('SIGUSR2', () => {`,
      `  let buffered = '';`,
      `  process.stdin.setEncoding('utf8');`,
      `  process.stdin.on('data', (chunk) => {`,
      `    buffered += chunk;`,
      `    for (let end = buffered.indexOf('\\n'); end !== -1; end = buffered.indexOf('\\n')) {`,
      `      const n = JSON.parse(buffered.slice(0, end)).params.n;`,
      `      buffered = buffered.slice(end + 1);`,
      `      process.stdout.write(JSON.stringify({ jsonrpc: '2.0', method: 'test/echo', params: { n } }) + '\\n');`,
      `    }`,
      `  });`,
      `});`,
      `process.stdout.write(JSON.stringify({ jsonrpc: '2.0', method: 'test/ready' }) + '\\n');`,
      'setInterval(() => {}, 1000);',
    ].join('\n');
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    const { transport } = transportFor(script, { shutdownGraceMs: 500 });
    const echoed: number[] = [];
    let ready!: () => void;
    const isReady = new Promise<void>((resolve, reject) => {
      ready = resolve;
      transport.onclose = () => reject(new Error(`the server ended early: ${transport.stderr.tail()}`));
    });
    const count = 50;
    let allEchoed!: () => void;
    const everyEcho = new Promise<void>((resolve) => {
      allEchoed = resolve;
    });
    transport.onmessage = (message) => {
      if (!('method' in message)) return;
      if (message.method === 'test/ready') ready();
      if (message.method === 'test/echo') {
        echoed.push((message.params as { n: number }).n);
        if (echoed.length === count) allEchoed();
      }
    };
    try {
      await transport.start();
      started.add(transport.pid!);
      await isReady;
      // 50 messages of 8 KB: far more than the pipe and the stream's buffer hold while nothing reads.
      const padding = 'x'.repeat(8 * 1024);
      let delivered = 0;
      const sends = Array.from({ length: count }, (_, n) =>
        transport.send({ jsonrpc: '2.0', method: 'test/message', params: { n, padding } }).then(() => {
          delivered += 1;
        }),
      );
      await new Promise((resolve) => setImmediate(resolve));
      expect(count - delivered).toBeGreaterThan(10);

      process.kill(transport.pid!, 'SIGUSR2');
      await Promise.all(sends);
      await everyEcho;
      expect(echoed).toEqual(Array.from({ length: count }, (_, n) => n));
      expect(warnings.map((warning) => `${warning.name}: ${warning.message}`)).toEqual([]);
    } finally {
      process.off('warning', onWarning);
      await transport.close();
    }
  });
});
