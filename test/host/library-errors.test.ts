/**
 * What the MCP client library refuses of a server's answer is reported in the host's words, naming what was wrong,
 * and what the server answered with a JSON-RPC error still reads as the server's: against a real stdio server that
 * answers each call with the result or the error it is told to, even one worded like the library's own or like the
 * error answers the host writes itself in place of an answer it refuses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../../src/host/create-host.js';
import { TrustStore } from '../../src/policy/trust-store.js';
import type { ToolResult } from '../../src/providers/types.js';
import { hostConfig, stdioServer } from '../helpers/configs.js';
import { fixtureServer } from '../helpers/project.js';

let host: Host;

beforeAll(async () => {
  host = await createHost({
    config: hostConfig([stdioServer('told', [fixtureServer('answers-as-told.mjs')], { trust: 'trusted' })]),
    auditSink: false,
    trustStore: TrustStore.inMemory(),
  });
}, 60_000);

afterAll(async () => {
  await host?.close();
});

function text(result: ToolResult): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
}

/** The error text the model gets for a call of `tool` answered as `answer` says. */
async function failureOf(tool: 'counted' | 'plain', answer: { result?: unknown; error?: unknown }) {
  const called = await host.callTool(`told__${tool}`, answer as Record<string, unknown>);
  expect(called.outcome).toBe('error');
  expect(called.result.isError).toBe(true);
  return text(called.result);
}

/** Worded like the library's own check: only the wire says the server sent it. */
const LOOKALIKE = "Structured content does not match the tool's output schema: said by the server";

describe('an answer the client library refuses', () => {
  it("is said not to match the tool's outputSchema, naming the mismatch", async () => {
    const said = await failureOf('counted', { result: { content: [], structuredContent: { count: 'three' } } });
    expect(said).toBe(
      "The tool call failed: the server's result does not match the tool's outputSchema: data/count must be integer",
    );
  });

  it("is said to lack the structuredContent the tool's outputSchema requires", async () => {
    const said = await failureOf('counted', { result: { content: [{ type: 'text', text: 'three' }] } });
    expect(said).toBe(
      "The tool call failed: the server's result has no structuredContent, which the tool's outputSchema requires",
    );
  });

  it('is said not to be a valid tools/call result, with or without an outputSchema', async () => {
    for (const tool of ['counted', 'plain'] as const) {
      const said = await failureOf(tool, { result: { content: 'not a list' } });
      expect(said, tool).toMatch(/^The tool call failed: the server's result is not a valid tools\/call result: \S/);
      expect(said, tool).not.toContain('answered with an error');
    }
  });
});

describe('a JSON-RPC error the server answers with', () => {
  it('reads as the server said it, with or without an outputSchema', async () => {
    for (const tool of ['counted', 'plain'] as const) {
      const said = await failureOf(tool, { error: { code: -32000, message: 'database offline' } });
      expect(said, tool).toBe('The tool call failed: the server answered with an error: database offline');
    }
  });

  it("reads as the server's even when worded like the library's own check", async () => {
    const said = await failureOf('counted', { error: { code: -32602, message: LOOKALIKE } });
    expect(said).toBe(`The tool call failed: the server answered with an error: ${LOOKALIKE}`);
  });

  it("is told from the library's own refusal of another call answered at the same time", async () => {
    const [fromServer, fromLibrary] = await Promise.all([
      failureOf('counted', { error: { code: -32602, message: LOOKALIKE } }),
      failureOf('counted', { result: { content: [], structuredContent: { count: 'three' } } }),
    ]);
    expect(fromServer).toBe(`The tool call failed: the server answered with an error: ${LOOKALIKE}`);
    expect(fromLibrary).toBe(
      "The tool call failed: the server's result does not match the tool's outputSchema: data/count must be integer",
    );
  });
});

describe("a JSON-RPC error the server answers with in the words of the host's own", () => {
  it("reads as the server's, be it worded like the host's refusal of an answer too deep or too large", async () => {
    const spoofs = [
      {
        code: -32600,
        message: "the server's answer to tools/call is nested deeper than 128 levels, so the host refused it",
      },
      // The code of the answer the host writes for an event past `maxMessageBytes`.
      {
        code: -32090,
        message:
          'sent a message larger than the maximum of 1024 bytes (2048 bytes so far), so the host stopped reading the response',
      },
    ];
    for (const error of spoofs) {
      const said = await failureOf('plain', { error });
      expect(said).toBe(`The tool call failed: the server answered with an error: ${error.message}`);
    }
  });
});
