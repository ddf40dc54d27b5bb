/**
 * Images go to each provider within its documented limits. A real MCP server over stdio returns images of
 * chosen byte and pixel sizes; the host runs with each provider's official SDK against the mock LLM server.
 * Images past a limit (bytes, pixels per side, count, total) reach the provider as a note saying what was
 * left out and why; images within it go as images; nothing is resized.
 */
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHost } from '../../src/host/create-host.js';
import { type MockLlmServer, parseScript, startMockLlmServer } from '../../src/testing/index.js';
import { fixtureServerPath } from '../fixtures/servers/fixture-servers.js';
import { hostConfig, stdioServer } from '../helpers/configs.js';
import { temporaryDirectory } from '../helpers/project.js';
import { PROVIDER_WIRES, type ProviderWireName } from '../providers/integration/provider-wires.js';

interface Wanted {
  kilobytes: number;
  width: number;
  height: number;
  format?: 'png' | 'jpeg';
}

const PHOTO_OVER_5_MB: Wanted = { kilobytes: 5.2 * 1024, width: 800, height: 600 };
const HUGE_PIXELS: Wanted = { kilobytes: 8, width: 9_000, height: 9_000 };
const JPEG_OVER_7_MB: Wanted = { kilobytes: 7.2 * 1024, width: 1_200, height: 900, format: 'jpeg' };
const SMALL_JPEG: Wanted = { kilobytes: 300, width: 1_200, height: 900, format: 'jpeg' };
const ICON: Wanted = { kilobytes: 4, width: 16, height: 16 };

function script() {
  const call = (images: Wanted[]) => ({
    turns: [{ toolCalls: [{ id: 'call_images', name: 'pics__images', arguments: { images } }] }, { text: 'seen' }],
  });
  return parseScript({
    scenarios: [
      // Each provider gets the big image that crosses its own limit, so the test moves as few megabytes as it can.
      { match: 'anthropic', ...call([PHOTO_OVER_5_MB, HUGE_PIXELS, SMALL_JPEG, ICON]) },
      { match: 'openai', ...call([HUGE_PIXELS, SMALL_JPEG, ICON]) },
      { match: 'gemini', ...call([HUGE_PIXELS, JPEG_OVER_7_MB, ICON]) },
      { match: 'many', ...call(Array.from({ length: 25 }, () => ({ kilobytes: 2, width: 2_500, height: 1_000 }))) },
    ],
  });
}

/** The notes in a request body: the pixel size of each image left out, and the reasons given. */
function leftOut(body: unknown): { sizes: string[]; notes: string[] } {
  const text = JSON.stringify(body);
  const notes = [...text.matchAll(/\[image left out \(([^)]*)\): ([^\]]*)\]/g)];
  return {
    sizes: notes.map(
      (note) =>
        /(\d[\d,]*) × (\d[\d,]*) px/
          .exec(note[1] as string)
          ?.slice(1, 3)
          .join('x') ?? '?',
    ),
    notes: notes.map((note) => note[2] as string),
  };
}

/** How many base64 images (PNG or JPEG) the body carries as images. */
function imagesSent(body: unknown): number {
  return [...JSON.stringify(body).matchAll(/"(?:data:image\/\w+;base64,)?(iVBORw0KGgo|\/9j\/)/g)].length;
}

let mock: MockLlmServer;
const cleanups: Array<() => Promise<void>> = [];

beforeAll(async () => {
  mock = await startMockLlmServer({ script: script() });
});

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  await mock?.close();
});

async function runWith(wireName: ProviderWireName, prompt: string): Promise<unknown> {
  const wire = PROVIDER_WIRES[wireName];
  const stateDir = await temporaryDirectory('mcp-host-image-limits-');
  const host = await createHost({
    config: hostConfig(
      [stdioServer('pics', [fixtureServerPath('big-images')], { trust: 'trusted', timeoutMs: 60_000 })],
      { permissions: { allow: ['pics__*'], ask: [], deny: [] }, maxResultTokens: 1_000_000 },
    ),
    model: wire.model,
    baseUrl: wire.baseUrl(mock.url),
    env: { ...wire.env },
    stateDir,
    auditSink: false,
  });
  cleanups.push(async () => {
    await host.close();
    await rm(stateDir, { recursive: true, force: true });
  });
  mock.requests.length = 0;
  const result = await host.run(prompt);
  expect(result.stopReason, result.message).toBe('end');
  const sent = mock.requests.filter((request) => wire.route.test(request.path.split('?')[0] as string));
  expect(sent).toHaveLength(2);
  return sent[1]?.body;
}

describe('images within each provider’s limits', { timeout: 120_000 }, () => {
  it('Anthropic: over 5 MB or over 8,000 px per side is left out with a note; the others go', async () => {
    const body = await runWith('anthropic', 'anthropic');
    const { sizes, notes } = leftOut(body);
    expect(sizes).toEqual(['800x600', '9,000x9,000']);
    expect(notes[0]).toContain("larger than Anthropic's limit of 5 MB per image");
    expect(notes[1]).toContain("larger than Anthropic's limit of 8,000 pixels per side");
    expect(notes[0]).toContain('the host does not resize images');
    expect(imagesSent(body)).toBe(2);
    expect(JSON.stringify(body).length).toBeLessThan(1_000_000);
  });

  it('Anthropic: more than 20 images in a request must be at most 2,000 px per side', async () => {
    const body = await runWith('anthropic', 'many');
    const { notes } = leftOut(body);
    expect(notes).toHaveLength(25);
    expect(notes[0]).toContain('2,000 pixels per side when a request has more than 20 images');
    expect(imagesSent(body)).toBe(0);
  });

  it('OpenAI: 9,000 px per side goes (the API scales it), and 25 large-sided images too', async () => {
    const mixed = await runWith('openai-responses', 'openai');
    expect(leftOut(mixed).notes).toEqual([]);
    expect(imagesSent(mixed)).toBe(3);
    const many = await runWith('openai-chat', 'many');
    expect(leftOut(many).notes).toEqual([]);
    expect(imagesSent(many)).toBe(25);
  });

  it('Gemini: a 7.2 MB image is over its 7 MB per inline image; the rest go', async () => {
    const body = await runWith('gemini', 'gemini');
    const { sizes, notes } = leftOut(body);
    expect(sizes).toEqual(['1,200x900']);
    expect(notes[0]).toContain("larger than Gemini's limit of 7 MB per image");
    expect(imagesSent(body)).toBe(2);
  });
});
