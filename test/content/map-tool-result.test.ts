/**
 * mapToolResult: every MCP content type, structuredContent with and without an outputSchema, the error flag,
 * and one round trip through a real MCP server and client so the mapping is checked against real wire data.
 */
import { type CallToolResult, Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { EMPTY_RESULT_TEXT, mapToolResult } from '../../src/content/map-tool-result.js';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const NO_SCHEMA = {};
const WITH_SCHEMA = { outputSchema: { type: 'object', properties: { total: { type: 'number' } } } };

describe('mapToolResult content blocks', () => {
  it('passes text through as text', () => {
    const mapped = mapToolResult({ content: [{ type: 'text', text: 'hello' }] }, NO_SCHEMA);
    expect(mapped).toEqual({ content: [{ type: 'text', text: 'hello' }], isError: false, notes: [], sources: [0] });
  });

  it('passes an image through as base64 data with its MIME type', () => {
    const mapped = mapToolResult({ content: [{ type: 'image', data: PNG, mimeType: 'image/png' }] }, NO_SCHEMA);
    expect(mapped.content).toEqual([{ type: 'image', data: PNG, mimeType: 'image/png' }]);
  });

  it('describes audio in one line with its MIME type and size, without the data', () => {
    const data = Buffer.alloc(48 * 1024, 7).toString('base64');
    const mapped = mapToolResult({ content: [{ type: 'audio', data, mimeType: 'audio/wav' }] }, NO_SCHEMA);
    expect(mapped.content).toEqual([{ type: 'text', text: '[audio: audio/wav, 48 KB — not shown to the model]' }]);
  });

  it('describes a resource link with its URI, MIME type and name', () => {
    const mapped = mapToolResult(
      { content: [{ type: 'resource_link', uri: 'file:///x.txt', name: 'x.txt', mimeType: 'text/plain' }] },
      NO_SCHEMA,
    );
    expect(mapped.content).toEqual([{ type: 'text', text: '[resource link: file:///x.txt (text/plain) "x.txt"]' }]);
  });

  it('includes a resource link’s size and description when given', () => {
    const mapped = mapToolResult(
      {
        content: [
          {
            type: 'resource_link',
            uri: 'https://example.test/report.pdf',
            name: 'report',
            mimeType: 'application/pdf',
            size: 3 * 1024 * 1024,
            description: 'Quarterly report',
          },
        ],
      },
      NO_SCHEMA,
    );
    expect(mapped.content[0]).toEqual({
      type: 'text',
      text: '[resource link: https://example.test/report.pdf (application/pdf, 3 MB) "report" — Quarterly report]',
    });
  });

  it('prefixes an embedded text resource with its URI and MIME type', () => {
    const mapped = mapToolResult(
      { content: [{ type: 'resource', resource: { uri: 'file:///x', mimeType: 'text/plain', text: 'line one' } }] },
      NO_SCHEMA,
    );
    expect(mapped.content).toEqual([{ type: 'text', text: '[resource file:///x (text/plain)]\nline one' }]);
  });

  it('names an embedded blob and its size, never its base64 data', () => {
    const blob = Buffer.alloc(2000, 1).toString('base64');
    const mapped = mapToolResult(
      {
        content: [{ type: 'resource', resource: { uri: 'file:///x.bin', mimeType: 'application/octet-stream', blob } }],
      },
      NO_SCHEMA,
    );
    const text = (mapped.content[0] as { text: string }).text;
    expect(text).toBe(
      '[resource file:///x.bin (application/octet-stream, 2 KB of binary data — not shown to the model)]',
    );
    expect(text).not.toContain(blob.slice(0, 20));
  });

  it('keeps the order of mixed blocks', () => {
    const mapped = mapToolResult(
      {
        content: [
          { type: 'text', text: 'a' },
          { type: 'image', data: PNG, mimeType: 'image/png' },
          { type: 'text', text: 'b' },
        ],
      },
      NO_SCHEMA,
    );
    expect(mapped.content.map((part) => part.type)).toEqual(['text', 'image', 'text']);
  });

  it('describes a block type it does not know instead of dropping it', () => {
    const result = { content: [{ type: 'hologram', data: 'x' }] } as unknown as CallToolResult;
    expect(mapToolResult(result, NO_SCHEMA).content).toEqual([
      { type: 'text', text: '[content of unsupported type "hologram" — not shown to the model]' },
    ]);
  });
});

describe('mapToolResult structuredContent', () => {
  const result: CallToolResult = {
    content: [
      { type: 'text', text: '{"total": 12}' },
      { type: 'image', data: PNG, mimeType: 'image/png' },
    ],
    structuredContent: { total: 12 },
  };

  it('sends structuredContent as JSON when the tool declares an outputSchema, keeping images but not text', () => {
    expect(mapToolResult(result, WITH_SCHEMA)).toEqual({
      content: [
        { type: 'text', text: '{"total":12}' },
        { type: 'image', data: PNG, mimeType: 'image/png' },
      ],
      isError: false,
      notes: [],
      // The JSON is the host's own part; the image is the server's second block.
      sources: [undefined, 1],
    });
  });

  it('keeps the text blocks as they are for a reader given the structuredContent beside them', () => {
    expect(mapToolResult(result, { ...WITH_SCHEMA, structuredContentBeside: true })).toEqual({
      content: result.content,
      isError: false,
      notes: [],
      sources: [0, 1],
    });
  });

  it('ignores structuredContent in favour of content when the tool declares no outputSchema', () => {
    expect(mapToolResult(result, NO_SCHEMA).content).toEqual(result.content);
  });

  it('falls back to content, with a note, when an outputSchema is declared but structuredContent is missing', () => {
    const mapped = mapToolResult({ content: [{ type: 'text', text: 'twelve' }] }, WITH_SCHEMA);
    expect(mapped.content).toEqual([{ type: 'text', text: 'twelve' }]);
    expect(mapped.notes).toEqual([expect.stringContaining('returned no structuredContent')]);
  });

  it('says which server block each part came from, in the server order', () => {
    const mixed: CallToolResult = {
      content: [
        { type: 'text', text: '{"total": 12}' },
        { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
        { type: 'text', text: 'more' },
        { type: 'resource_link', uri: 'file:///a.txt', name: 'a' },
      ],
      structuredContent: { total: 12 },
    };
    expect(mapToolResult(mixed, WITH_SCHEMA).sources).toEqual([undefined, 1, 3]);
    expect(mapToolResult(mixed, NO_SCHEMA).sources).toEqual([0, 1, 2, 3]);
    expect(mapToolResult({ content: [] }, NO_SCHEMA).sources).toEqual([undefined]);
  });

  it('uses structuredContent when there is no content at all', () => {
    const mapped = mapToolResult({ content: [], structuredContent: { total: 1 } }, NO_SCHEMA);
    expect(mapped.content).toEqual([{ type: 'text', text: '{"total":1}' }]);
    expect(mapped.notes).toHaveLength(1);
  });
});

describe('mapToolResult errors and empty results', () => {
  it('carries isError and shows the error content even when an outputSchema is declared', () => {
    const mapped = mapToolResult(
      { content: [{ type: 'text', text: 'File not found: a.txt' }], isError: true },
      WITH_SCHEMA,
    );
    expect(mapped).toEqual({
      content: [{ type: 'text', text: 'File not found: a.txt' }],
      isError: true,
      notes: [],
      sources: [0],
    });
  });

  it('gives an empty result one text part so every provider accepts it', () => {
    const mapped = mapToolResult({ content: [] }, NO_SCHEMA);
    expect(mapped.content).toEqual([{ type: 'text', text: EMPTY_RESULT_TEXT }]);
    expect(mapped.isError).toBe(false);
  });
});

describe('mapToolResult on results from a real MCP server', () => {
  it('maps what the official client returns, structured output validated by the client', async () => {
    const server = new McpServer({ name: 'mapping-test', version: '1.0.0' });
    server.registerTool(
      'add',
      {
        description: 'Adds two numbers.',
        inputSchema: z.object({ a: z.number(), b: z.number() }),
        outputSchema: z.object({ total: z.number() }),
      },
      async ({ a, b }) => ({
        content: [{ type: 'text', text: JSON.stringify({ total: a + b }) }],
        structuredContent: { total: a + b },
      }),
    );
    server.registerTool('mixed', { description: 'Returns one of each.', inputSchema: z.object({}) }, async () => ({
      content: [
        { type: 'text', text: 'see attached' },
        { type: 'image', data: PNG, mimeType: 'image/png' },
        { type: 'resource_link', uri: 'file:///data.csv', name: 'data.csv', mimeType: 'text/csv' },
        { type: 'resource', resource: { uri: 'file:///notes.md', mimeType: 'text/markdown', text: '# Notes' } },
      ],
    }));
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 'mapping-test-client', version: '1.0.0' });
    try {
      await server.connect(serverSide);
      await client.connect(clientSide);
      const { tools } = await client.listTools();
      const byName = new Map(tools.map((tool) => [tool.name, tool]));

      const added = await client.callTool({ name: 'add', arguments: { a: 5, b: 7 } });
      expect(mapToolResult(added, byName.get('add') ?? {}).content).toEqual([{ type: 'text', text: '{"total":12}' }]);

      const mixed = await client.callTool({ name: 'mixed', arguments: {} });
      expect(mapToolResult(mixed, byName.get('mixed') ?? {}).content).toEqual([
        { type: 'text', text: 'see attached' },
        { type: 'image', data: PNG, mimeType: 'image/png' },
        { type: 'text', text: '[resource link: file:///data.csv (text/csv) "data.csv"]' },
        { type: 'text', text: '[resource file:///notes.md (text/markdown)]\n# Notes' },
      ]);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
