/**
 * The pixel size of an image, read from its header without decoding it.
 *
 * Providers bill and limit images by their pixels; the host reads only the header (PNG, JPEG, GIF, WebP:
 * the types every provider accepts), decoding at most the first {@link HEADER_BYTES} bytes of the base64.
 * An image whose header cannot be read has no known size, and callers fall back to a fixed estimate.
 */

export interface ImageDimensions {
  width: number;
  height: number;
}

/** JPEG puts its size after the EXIF and colour profile segments, which can reach tens of kilobytes. */
const HEADER_BYTES = 256 * 1024;

/** The size of a base64 image, or undefined when its header is not one the host reads. */
export function readImageDimensions(base64: string): ImageDimensions | undefined {
  // A multiple of 4 base64 characters decodes to whole bytes.
  const prefix = base64.slice(0, Math.ceil((HEADER_BYTES * 4) / 3 / 4) * 4);
  const bytes = Buffer.from(prefix, 'base64');
  return pngSize(bytes) ?? gifSize(bytes) ?? webpSize(bytes) ?? jpegSize(bytes);
}

function valid(width: number, height: number): ImageDimensions | undefined {
  return width > 0 && height > 0 ? { width, height } : undefined;
}

function startsWith(bytes: Buffer, signature: readonly number[], at = 0): boolean {
  if (bytes.length < at + signature.length) return false;
  return signature.every((byte, index) => bytes[at + index] === byte);
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function pngSize(bytes: Buffer): ImageDimensions | undefined {
  // The first chunk is IHDR: width and height as big-endian 32-bit integers.
  if (!startsWith(bytes, PNG_SIGNATURE) || bytes.length < 24 || bytes.toString('latin1', 12, 16) !== 'IHDR') {
    return undefined;
  }
  return valid(bytes.readUInt32BE(16), bytes.readUInt32BE(20));
}

function gifSize(bytes: Buffer): ImageDimensions | undefined {
  const magic = bytes.toString('latin1', 0, 6);
  if ((magic !== 'GIF87a' && magic !== 'GIF89a') || bytes.length < 10) return undefined;
  return valid(bytes.readUInt16LE(6), bytes.readUInt16LE(8));
}

function webpSize(bytes: Buffer): ImageDimensions | undefined {
  if (bytes.length < 30 || bytes.toString('latin1', 0, 4) !== 'RIFF' || bytes.toString('latin1', 8, 12) !== 'WEBP') {
    return undefined;
  }
  const chunk = bytes.toString('latin1', 12, 16);
  if (chunk === 'VP8X') {
    // 24-bit canvas width and height, each stored minus one.
    return valid(bytes.readUIntLE(24, 3) + 1, bytes.readUIntLE(27, 3) + 1);
  }
  if (chunk === 'VP8L' && bytes[20] === 0x2f) {
    const bits = bytes.readUInt32LE(21);
    return valid((bits & 0x3fff) + 1, ((bits >> 14) & 0x3fff) + 1);
  }
  if (chunk === 'VP8 ' && startsWith(bytes, [0x9d, 0x01, 0x2a], 23)) {
    return valid(bytes.readUInt16LE(26) & 0x3fff, bytes.readUInt16LE(28) & 0x3fff);
  }
  return undefined;
}

/** Start-of-frame markers (baseline, progressive, lossless …); C4, C8 and CC are other segments. */
function isStartOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

function jpegSize(bytes: Buffer): ImageDimensions | undefined {
  if (!startsWith(bytes, [0xff, 0xd8])) return undefined;
  let at = 2;
  while (at + 9 <= bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1] as number;
    if (marker === 0xff) {
      at++; // fill byte
      continue;
    }
    if (isStartOfFrame(marker)) return valid(bytes.readUInt16BE(at + 7), bytes.readUInt16BE(at + 5));
    const length = bytes.readUInt16BE(at + 2);
    if (length < 2) return undefined;
    at += 2 + length;
  }
  return undefined;
}
