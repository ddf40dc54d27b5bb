/**
 * The calculator example against its compiled process: over stdio with the official client, over
 * raw stdio to prove stdout carries nothing but protocol messages, and over Streamable HTTP.
 */
import { spawn } from 'node:child_process';
import { type Client, LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  compiledServerPath,
  connectOverHttp,
  connectOverStdio,
  type HttpServerProcess,
  resultText,
  startOverHttp,
} from './compiled-servers.js';

const pureFunction = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

describe('calculator example over stdio', () => {
  // The calculator keeps no state between calls: one process serves every test here.
  let client: Client;
  beforeAll(async () => {
    client = await connectOverStdio('calculator');
  });
  afterAll(async () => {
    await client?.close();
  });

  it('adds 5 and 7 to "12"', async () => {
    const result = await client.callTool({ name: 'add_numbers', arguments: { a: 5, b: 7 } });
    expect(result.isError).toBeFalsy();
    expect(resultText(result)).toBe('12');
  });

  it('subtracts, multiplies and divides', async () => {
    const answers = await Promise.all([
      client.callTool({ name: 'subtract', arguments: { a: 5, b: 7 } }),
      client.callTool({ name: 'multiply', arguments: { a: 6, b: 7 } }),
      client.callTool({ name: 'divide', arguments: { a: 7, b: 2 } }),
      client.callTool({ name: 'add_numbers', arguments: { a: 0.5, b: -2.25 } }),
    ]);
    expect(answers.map(resultText)).toEqual(['-2', '42', '3.5', '-1.75']);
  });

  it('answers division by zero with an error result that says what went wrong', async () => {
    const result = await client.callTool({ name: 'divide', arguments: { a: 5, b: 0 } });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatch(/division by zero/);
  });

  it('answers an overflow with an error result rather than Infinity', async () => {
    const result = await client.callTool({ name: 'multiply', arguments: { a: 1e308, b: 10 } });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatch(/not a finite number/);
  });

  it('rejects operands that are not numbers with an error result', async () => {
    const result = await client.callTool({ name: 'add_numbers', arguments: { a: 'five', b: 7 } });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatch(/Invalid arguments/);
  });

  it('declares each tool as a titled, read-only, idempotent, closed-world pure function', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['add_numbers', 'divide', 'multiply', 'subtract']);
    for (const tool of tools) {
      expect(tool.title, tool.name).toBeTruthy();
      expect(tool.annotations, tool.name).toEqual({ title: tool.title, ...pureFunction });
      expect(tool.inputSchema.required, tool.name).toEqual(['a', 'b']);
      // Text only, on purpose: see the comment at the top of the server.
      expect(tool.outputSchema, tool.name).toBeUndefined();
    }
  });
});

describe('calculator example stdout', () => {
  it('carries nothing but JSON-RPC messages', async () => {
    const child = spawn(process.execPath, [compiledServerPath('calculator')], { stdio: ['pipe', 'pipe', 'pipe'] });
    try {
      let stdout = '';
      child.stdout.setEncoding('utf8').on('data', (text: string) => {
        stdout += text;
      });
      // Once its stdout is read to the end, not only once it has exited.
      const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
      const send = (message: object): void => {
        child.stdin.write(`${JSON.stringify(message)}\n`);
      };
      const answered = (id: number): Promise<void> =>
        new Promise((resolve) => {
          const check = (): void => {
            if (stdout.includes(`"id":${id}`)) {
              child.stdout.off('data', check);
              resolve();
            }
          };
          child.stdout.on('data', check);
          check();
        });

      send({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: LATEST_PROTOCOL_VERSION,
          capabilities: {},
          clientInfo: { name: 'raw', version: '0' },
        },
      });
      await answered(1);
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'add_numbers', arguments: { a: 5, b: 7 } } });
      send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'divide', arguments: { a: 1, b: 0 } } });
      await Promise.all([answered(2), answered(3)]);
      // Closing stdin is how a client ends a stdio session: the server must then exit by itself.
      child.stdin.end();
      expect(await exited).toBe(0);

      const lines = stdout.split('\n').filter((line) => line !== '');
      expect(lines.length).toBe(3);
      for (const line of lines) {
        expect(() => JSON.parse(line), `not JSON on stdout: ${line}`).not.toThrow();
        expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
      }
      const byId = new Map(lines.map((line) => JSON.parse(line)).map((message) => [message.id, message]));
      expect(byId.get(2).result.content[0].text).toBe('12');
      expect(byId.get(3).result.isError).toBe(true);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});

describe('calculator example over Streamable HTTP', () => {
  // One process for the describe; the last test stops it.
  let server: HttpServerProcess;
  beforeAll(async () => {
    server = await startOverHttp('calculator');
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('announces one readiness line on stderr and answers tools on that port', async () => {
    expect(server.stderr()).toMatch(/^listening http:\/\/127\.0\.0\.1:\d+\/mcp\n$/);
    expect(Number(server.url.port)).toBeGreaterThan(0);

    const { client, transport } = await connectOverHttp(server.url);
    try {
      expect(transport.sessionId).toMatch(/\S/);
      const result = await client.callTool({ name: 'add_numbers', arguments: { a: 5, b: 7 } });
      expect(resultText(result)).toBe('12');
      const { tools } = await client.listTools();
      expect(tools.find((tool) => tool.name === 'divide')?.annotations).toMatchObject(pureFunction);
    } finally {
      await client.close();
    }
  });

  it('keeps sessions apart and refuses an unknown session id with 404', async () => {
    const first = await connectOverHttp(server.url);
    const second = await connectOverHttp(server.url);
    try {
      expect(first.transport.sessionId).not.toBe(second.transport.sessionId);
      const [one, two] = await Promise.all([
        first.client.callTool({ name: 'multiply', arguments: { a: 3, b: 4 } }),
        second.client.callTool({ name: 'subtract', arguments: { a: 3, b: 4 } }),
      ]);
      expect([resultText(one), resultText(two)]).toEqual(['12', '-1']);

      const response = await fetch(server.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-session-id': 'no-such-session',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(response.status).toBe(404);
    } finally {
      await first.client.close();
      await second.client.close();
    }
  });

  it('stops cleanly on SIGTERM with a session still open', async () => {
    const { client } = await connectOverHttp(server.url);
    try {
      expect(resultText(await client.callTool({ name: 'add_numbers', arguments: { a: 1, b: 1 } }))).toBe('2');
      expect(await server.stop()).toBe(0);
    } finally {
      await client.close();
    }
  });
});
