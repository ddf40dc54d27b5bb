/**
 * A call's audio, resource links and embedded resources through `mcp-host serve`, over stdio and Streamable HTTP, with
 * the official SDK client in front of the built CLI and a real fixture server behind it: each block arrives as the
 * server sent it, in its order among the text and images, where a model would have had a line describing it. The
 * blocks are held to the output budget the text is held to: one over what is left of it arrives as that line.
 */
import { Client } from '@modelcontextprotocol/client';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeAudio } from '../../src/content/describe-content.js';
import { writeFixtureServersConfig } from '../helpers/fixture-servers-config.js';
import { connectGatewayClient } from '../helpers/gateway-client.js';
import { waitUntil } from '../helpers/gateway-process.js';
import { bundledCliPath, temporaryDirectory } from '../helpers/project.js';
import { answerTo, rawStdioGateway, toolCallLine } from './raw-stdio-gateway.js';

/** Room for every block below with a 1 KB audio clip (about 350 tokens), none for a 64 KB one (about 22,000). */
const BUDGET_TOKENS = 2_000;
const TOOL = 'media__echo_content';
/** A 1 × 1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

function audio(kilobytes: number) {
  return { type: 'audio', mimeType: 'audio/wav', data: Buffer.alloc(kilobytes * 1024, 7).toString('base64') };
}

/** Every kind of block, the audio clip at index 2. */
function blocks(audioKilobytes: number, firstText = 'first') {
  return [
    { type: 'text', text: firstText },
    { type: 'image', mimeType: 'image/png', data: PNG },
    audio(audioKilobytes),
    {
      type: 'resource_link',
      uri: 'file:///notes/a.txt',
      name: 'a.txt',
      mimeType: 'text/plain',
      description: 'the notes',
      _meta: { origin: 'echo' },
    },
    { type: 'resource', resource: { uri: 'file:///notes/b.txt', mimeType: 'text/plain', text: 'embedded text' } },
    {
      type: 'resource',
      resource: {
        uri: 'file:///data/c.bin',
        mimeType: 'application/octet-stream',
        blob: Buffer.from([1, 2, 3, 4]).toString('base64'),
      },
    },
    { type: 'text', text: 'last' },
  ];
}

let config: string;
beforeAll(async () => {
  config = await writeFixtureServersConfig({
    media: { file: 'echo-content.mjs', budgets: { echo_content: BUDGET_TOKENS } },
  });
});

describe.each(['stdio', 'http'] as const)(
  'a tool answering with every kind of content, through the gateway over %s',
  (over) => {
    it('passes each block on as the server sent it, in order; one over the output budget as the line describing it', async () => {
      const client = new Client({ name: 'gateway-test', version: '1.0.0' });
      const connection = await connectGatewayClient(
        client,
        over,
        config,
        await temporaryDirectory('mcp-host-content-blocks-state-'),
      );
      try {
        const sent = blocks(1);
        const whole = await client.callTool({ name: TOOL, arguments: { content: sent } });
        expect(whole.isError).toBe(false);
        expect(whole.content).toEqual(sent);

        // A 64 KB clip is over the budget: a model would be told of it, and so is the client.
        const large = blocks(64);
        const overBudget = await client.callTool({ name: TOOL, arguments: { content: large } });
        expect(overBudget.isError).toBe(false);
        const expected = [...large];
        expected[2] = { type: 'text', text: describeAudio('audio/wav', audio(64).data) };
        expect(overBudget.content).toEqual(expected);
        expect(expected[2]).toEqual({ type: 'text', text: '[audio: audio/wav, 64 KB — not shown to the model]' });

        // A text over the budget is cut as the host cuts it, which leaves no room for the clip.
        const cut = await client.callTool({ name: TOOL, arguments: { content: blocks(1, 'x'.repeat(40_000)) } });
        const cutContent = cut.content as Array<{ type: string; text?: string }>;
        expect(cutContent).toHaveLength(7);
        expect(cutContent[0]?.text).toMatch(/^x+\n\n\[… [\d,]+ characters \(about [\d,]+ tokens\) left out here/);
        expect(cutContent[2]).toEqual({ type: 'text', text: describeAudio('audio/wav', audio(1).data) });
      } finally {
        await connection.close();
      }
    }, 90_000);
  },
);

describe('the content blocks a gateway client is sent', () => {
  it('keep the __proto__ keys of their _meta as data keys, as the server sent them', async () => {
    const cleanups: Array<() => Promise<void>> = [];
    try {
      // Raw lines: the SDK client's own result check would drop the keys this looks for.
      const raw = await rawStdioGateway(
        [bundledCliPath(), 'serve', '--config', config, '--state-dir', await temporaryDirectory()],
        cleanups,
      );
      const meta = '{"__proto__":{"a":1},"~__proto__":"as sent","b":2}';
      const sent: object[] = blocks(1);
      sent[3] = { ...(sent[3] as object), _meta: JSON.parse(meta) };
      raw.send(toolCallLine(2, TOOL, { content: sent }));
      await waitUntil(() => answerTo(raw.answers, 2) !== undefined, 'the answer to the call');
      const result = answerTo(raw.answers, 2)?.result as { isError?: boolean; content: Array<{ _meta?: object }> };
      expect(result.isError).toBe(false);
      // The library's check orders each block's keys its own way; the values are the server's.
      expect(result.content).toEqual(sent);
      expect(JSON.stringify(result.content[3]?._meta)).toBe(meta);
    } finally {
      for (const cleanup of cleanups) await cleanup();
    }
  }, 60_000);
});
