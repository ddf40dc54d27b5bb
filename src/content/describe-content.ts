/**
 * One-line descriptions of MCP content a model cannot take as tool output (audio, resource links, binary
 * resources) and of content left out by the output budget.
 *
 * The model is told what was there — type, MIME type, URI, size — so it can mention it or fetch it another
 * way; binary data itself is never put into text, where it would only burn tokens.
 */

/** The size in bytes of base64 data, without decoding it. */
export function base64DecodedSize(data: string): number {
  let padding = 0;
  if (data.endsWith('==')) padding = 2;
  else if (data.endsWith('=')) padding = 1;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

/** A short human size: `512 bytes`, `48 KB`, `1.2 MB` (binary units, as file managers show them). */
export function formatByteSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const shown = value < 10 ? value.toFixed(1).replace(/\.0$/, '') : Math.round(value).toString();
  return `${shown} ${units[unit]}`;
}

/** A count with thousands separators, for notices read by people and models. */
export function formatCount(count: number): string {
  return count.toLocaleString('en-US');
}

export function describeAudio(mimeType: string, data: string): string {
  return `[audio: ${mimeType}, ${formatByteSize(base64DecodedSize(data))} — not shown to the model]`;
}

export function describeResourceLink(link: {
  uri: string;
  name: string;
  mimeType?: string;
  description?: string;
  size?: number;
}): string {
  const details = [link.mimeType, link.size === undefined ? undefined : formatByteSize(link.size)].filter(
    (detail): detail is string => detail !== undefined,
  );
  const detailText = details.length > 0 ? ` (${details.join(', ')})` : '';
  const description = link.description ? ` — ${link.description}` : '';
  return `[resource link: ${link.uri}${detailText} ${JSON.stringify(link.name)}${description}]`;
}

/** The header line put before the text of an embedded text resource. */
export function describeTextResource(uri: string, mimeType: string | undefined): string {
  return `[resource ${uri}${mimeType ? ` (${mimeType})` : ''}]`;
}

export function describeBlobResource(uri: string, mimeType: string | undefined, blob: string): string {
  const type = mimeType ?? 'unknown type';
  return `[resource ${uri} (${type}, ${formatByteSize(base64DecodedSize(blob))} of binary data — not shown to the model)]`;
}

export function describeUnsupportedContent(type: unknown): string {
  return `[content of unsupported type ${JSON.stringify(String(type))} — not shown to the model]`;
}
