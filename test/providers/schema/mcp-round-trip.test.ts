import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normaliseToolSchema, SCHEMA_TARGETS, unwrapArguments } from '../../../src/providers/schema/index.js';
import { bundledFixture } from '../../helpers/bundled-fixture.js';
import { isMcpDeclarable, loadCorpus, validate } from './corpus.js';

const serverScript = bundledFixture(fileURLToPath(new URL('../../fixtures/echo-schema-server.mjs', import.meta.url)));
const corpus = loadCorpus();

describe('arguments reach a real MCP server unchanged', () => {
  let client: Client;
  let transport: StdioClientTransport;

  beforeAll(async () => {
    transport = new StdioClientTransport({ command: process.execPath, args: [serverScript], stderr: 'pipe' });
    client = new Client({ name: 'schema-round-trip-test', version: '1.0.0' });
    await client.connect(transport);
  });

  afterAll(async () => {
    await client?.close();
  });

  it('the server declares every corpus schema MCP can carry', async () => {
    const { tools } = await client.listTools();
    const declarable = corpus.filter(isMcpDeclarable);
    expect(tools.map((tool) => tool.name).sort()).toEqual(declarable.map((entry) => entry.name).sort());
    expect(declarable.length).toBeGreaterThanOrEqual(25);
  });

  it.each(SCHEMA_TARGETS)('for %s: normalise, validate the model arguments, unwrap, call, echo', async (target) => {
    for (const entry of corpus) {
      const { schema, wrapped } = normaliseToolSchema(entry.inputSchema, target);
      const modelArguments = structuredClone(
        (wrapped ? { value: entry.example } : entry.example) as Record<string, unknown>,
      );
      expect(validate(schema, modelArguments).valid, `${entry.file} for ${target}`).toBe(true);
      const serverArguments = unwrapArguments(modelArguments, wrapped);
      if (!isMcpDeclarable(entry)) {
        // MCP carries only object arguments; a server cannot declare this schema at all. The
        // unwrapped value is still exactly what the schema describes.
        expect(validate(entry.inputSchema, serverArguments).valid, entry.file).toBe(true);
        continue;
      }
      const result = await client.callTool({
        name: entry.name,
        arguments: serverArguments as Record<string, unknown>,
      });
      const [content] = result.content as { type: string; text: string }[];
      expect(result.isError, `${entry.file} for ${target}: ${content?.text}`).toBeFalsy();
      expect(JSON.parse(content?.text ?? 'null'), `${entry.file} for ${target}`).toEqual(entry.example);
    }
  });
});
