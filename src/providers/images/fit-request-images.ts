/**
 * Keeps a request's images within its provider's limits: an image too large in bytes or pixels, or past the
 * request's count or total size, is replaced by a text note saying what it was and why it was left out, so
 * the model knows and the request is not rejected whole. The newest images are kept first (the latest tool
 * result matters most). The host has no image encoder, so it never resizes: it leaves out.
 *
 * The transcript itself is not changed; the same transcript always gives the same request, which keeps
 * provider prompt caches valid.
 */
import { base64DecodedSize, formatByteSize, formatCount } from '../../content/describe-content.js';
import { type ImageDimensions, readImageDimensions } from '../../content/image-dimensions.js';
import type { ImagePart, Message, ModelRequest, TextPart } from '../types.js';
import type { ImageLimits } from './image-limits.js';

interface Found {
  part: ImagePart;
  bytes: number;
  size: ImageDimensions | undefined;
  /** Why it is left out; undefined while kept. */
  reason?: string;
}

/** The request with every image past `limits` replaced by a note; the same object when all fit. */
export function fitRequestImages(request: ModelRequest, limits: ImageLimits): ModelRequest {
  const found: Found[] = [];
  for (const message of request.messages) {
    for (const part of imagePartsOf(message)) {
      found.push({ part, bytes: base64DecodedSize(part.data), size: readImageDimensions(part.data) });
    }
  }
  if (found.length === 0) return request;
  decide(found, limits);
  const notes = new Map<ImagePart, TextPart>();
  for (const image of found) {
    if (image.reason !== undefined) notes.set(image.part, { type: 'text', text: noteFor(image, limits) });
  }
  if (notes.size === 0) return request;
  return { ...request, messages: request.messages.map((message) => replaceImages(message, notes)) };
}

function imagePartsOf(message: Message): ImagePart[] {
  if (message.role === 'user') return message.content.filter((part): part is ImagePart => part.type === 'image');
  if (message.role === 'tool') {
    return message.results.flatMap((result) =>
      result.content.filter((part): part is ImagePart => part.type === 'image'),
    );
  }
  return [];
}

function longestSide(image: Found): number {
  return image.size === undefined ? 0 : Math.max(image.size.width, image.size.height);
}

function decide(found: Found[], limits: ImageLimits): void {
  for (const image of found) {
    if (image.bytes > limits.maxImageBytes) {
      image.reason = `larger than ${limits.provider}'s limit of ${formatByteSize(limits.maxImageBytes)} per image`;
    } else if (limits.maxImageSide !== undefined && longestSide(image) > limits.maxImageSide) {
      image.reason = `larger than ${limits.provider}'s limit of ${formatCount(limits.maxImageSide)} pixels per side`;
    }
  }
  // Newest first: the count and the total size are spent on the latest images.
  let kept = 0;
  let totalBytes = 0;
  for (let index = found.length - 1; index >= 0; index--) {
    const image = found[index] as Found;
    if (image.reason !== undefined) continue;
    if (kept >= limits.maxImages) {
      image.reason = `past ${limits.provider}'s limit of ${formatCount(limits.maxImages)} images per request (newer images were kept)`;
    } else if (totalBytes + image.bytes > limits.maxTotalBytes) {
      image.reason = `past ${limits.provider}'s limit of ${formatByteSize(limits.maxTotalBytes)} of images per request (newer images were kept)`;
    } else {
      kept++;
      totalBytes += image.bytes;
    }
  }
  const many = limits.manyImages;
  if (many === undefined || kept <= many.over) return;
  for (const image of found) {
    if (image.reason === undefined && longestSide(image) > many.maxSide) {
      image.reason = `larger than ${limits.provider}'s limit of ${formatCount(many.maxSide)} pixels per side when a request has more than ${many.over} images`;
    }
  }
}

function noteFor(image: Found, limits: ImageLimits): string {
  const size =
    image.size === undefined ? '' : `, ${formatCount(image.size.width)} × ${formatCount(image.size.height)} px`;
  return `[image left out (${image.part.mimeType}, ${formatByteSize(image.bytes)}${size}): ${image.reason}. It was not sent to ${limits.provider}; the host does not resize images, so ask the tool for a smaller image or a part of it if you need to see it.]`;
}

function replaceImages(message: Message, notes: ReadonlyMap<ImagePart, TextPart>): Message {
  const swap = <Part extends TextPart | ImagePart>(part: Part): Part | TextPart =>
    part.type === 'image' ? (notes.get(part as ImagePart) ?? part) : part;
  if (message.role === 'user') return { ...message, content: message.content.map(swap) };
  if (message.role === 'tool') {
    return { ...message, results: message.results.map((result) => ({ ...result, content: result.content.map(swap) })) };
  }
  return message;
}
