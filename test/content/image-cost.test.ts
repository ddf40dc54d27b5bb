/**
 * Images are budgeted by their real cost: the pixel size read from the header (PNG, JPEG, GIF, WebP), billed
 * as the dearest provider would after its own downscale; an unreadable header costs the fixed estimate.
 */
import { describe, expect, it } from 'vitest';
import { readImageDimensions } from '../../src/content/image-dimensions.js';
import { DEFAULT_IMAGE_TOKEN_COST, estimateImageTokens } from '../../src/content/linear-token-estimate.js';
import { applyOutputBudget } from '../../src/content/output-budget.js';

function png(width: number, height: number): string {
  const bytes = Buffer.alloc(33);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13], 0);
  bytes.write('IHDR', 12, 'latin1');
  bytes.writeUInt32BE(width, 16);
  bytes.writeUInt32BE(height, 20);
  return bytes.toString('base64');
}

function jpeg(width: number, height: number, exifBytes: number): string {
  const exif = Buffer.alloc(exifBytes + 4, 0x61);
  exif.set([0xff, 0xe1], 0);
  exif.writeUInt16BE(exifBytes + 2, 2);
  const frame = Buffer.from([0xff, 0xc2, 0, 17, 8, 0, 0, 0, 0, 3]);
  frame.writeUInt16BE(height, 5);
  frame.writeUInt16BE(width, 7);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), exif, frame, Buffer.alloc(20)]).toString('base64');
}

function gif(width: number, height: number): string {
  const bytes = Buffer.alloc(13);
  bytes.write('GIF89a', 0, 'latin1');
  bytes.writeUInt16LE(width, 6);
  bytes.writeUInt16LE(height, 8);
  return bytes.toString('base64');
}

function webp(width: number, height: number): string {
  const bytes = Buffer.alloc(40);
  bytes.write('RIFF', 0, 'latin1');
  bytes.write('WEBP', 8, 'latin1');
  bytes.write('VP8X', 12, 'latin1');
  bytes.writeUIntLE(width - 1, 24, 3);
  bytes.writeUIntLE(height - 1, 27, 3);
  return bytes.toString('base64');
}

describe('image sizes from headers', () => {
  it('reads PNG, progressive JPEG after a 60 KB EXIF block, GIF and WebP', () => {
    expect(readImageDimensions(png(1920, 1080))).toEqual({ width: 1920, height: 1080 });
    expect(readImageDimensions(jpeg(4000, 3000, 60_000))).toEqual({ width: 4000, height: 3000 });
    expect(readImageDimensions(gif(320, 200))).toEqual({ width: 320, height: 200 });
    expect(readImageDimensions(webp(10_000, 20))).toEqual({ width: 10_000, height: 20 });
    expect(readImageDimensions(Buffer.from('not an image at all').toString('base64'))).toBeUndefined();
  });

  it('costs by pixels, as billed after the provider downscales; unreadable costs the fixed estimate', () => {
    const cost = (data: string) => estimateImageTokens({ type: 'image', mimeType: 'image/png', data });
    expect(cost(png(16, 16))).toBe(1);
    expect(cost(png(200, 150))).toBe(40);
    // 1,000 × 1,000 is under both of Anthropic's caps: a million pixels / 750.
    expect(cost(png(1000, 1000))).toBe(1334);
    // A 12-megapixel photo is billed as its ~1.15-megapixel copy, not 16,000 tokens.
    expect(cost(jpeg(4000, 3000, 10))).toBeLessThanOrEqual(1534);
    expect(cost(jpeg(4000, 3000, 10))).toBeGreaterThan(1500);
    expect(cost('AAAA')).toBe(DEFAULT_IMAGE_TOKEN_COST);
  });

  it('ten icons fit a 100-token budget that one fixed-cost image would not', () => {
    const icons = Array.from({ length: 10 }, () => ({
      type: 'image' as const,
      mimeType: 'image/png',
      data: png(24, 24),
    }));
    const budgeted = applyOutputBudget(icons, { maxTokens: 100 });
    expect(budgeted.cut).toBe(false);
    expect(budgeted.content.every((part) => part.type === 'image')).toBe(true);
    const unreadable = applyOutputBudget([{ type: 'image', mimeType: 'image/png', data: 'AAAA' }], { maxTokens: 100 });
    expect(unreadable.content[0]?.type).toBe('text');
  });
});
