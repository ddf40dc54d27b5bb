/**
 * Files a view asks the user to save (`ui/download-file`): only contents embedded in the request (a link is not
 * fetched for the view), at most MAX_DOWNLOAD_FILES files and MAX_DOWNLOAD_BYTES in all, each under a plain file name
 * made from its URI. Saved only after the user says so, and as bytes (`application/octet-stream`), so the browser
 * saves them rather than opening them.
 */

export const MAX_DOWNLOAD_FILES = 10;
export const MAX_DOWNLOAD_BYTES = 10 * 1024 * 1024;

export interface ViewFile {
  name: string;
  mimeType: string;
  bytes: Uint8Array;
}

interface EmbeddedContents {
  type?: unknown;
  uri?: unknown;
  resource?: { uri?: unknown; mimeType?: unknown; text?: unknown; blob?: unknown };
}

/** The last part of a URI's path, kept to letters, digits, dot, dash and underscore. */
export function fileNameOf(uri: string): string {
  // The scheme and authority are not part of the name.
  const path = uri.replace(/^[a-z][a-z0-9+.-]*:(\/\/[^/]*)?/i, '');
  const last =
    path
      .split(/[/\\]/)
      .filter((part) => part !== '')
      .pop() ?? '';
  const plain = last
    .replace(/[?#].*$/, '')
    .replace(/[^A-Za-z0-9._-]/g, '_')
    .replace(/^\.+/, '')
    .slice(0, 100);
  return plain === '' ? 'download' : plain;
}

function decodeBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

/** The files asked for, or why the request is refused. */
export function filesOfRequest(contents: unknown): ViewFile[] | string {
  if (!Array.isArray(contents) || contents.length === 0) return 'the request names no file';
  if (contents.length > MAX_DOWNLOAD_FILES) return `more than ${MAX_DOWNLOAD_FILES} files`;
  const files: ViewFile[] = [];
  let total = 0;
  for (const item of contents as EmbeddedContents[]) {
    if (item?.type === 'resource_link') return 'a link to download is not fetched for a view';
    const resource = item?.type === 'resource' ? item.resource : undefined;
    if (resource === undefined || typeof resource.uri !== 'string') return 'an entry is not an embedded resource';
    // The size of base64 is known before decoding it: 3 bytes per 4 characters.
    const size =
      typeof resource.blob === 'string'
        ? Math.floor((resource.blob.length * 3) / 4)
        : typeof resource.text === 'string'
          ? resource.text.length * 3
          : 0;
    if (total + size > MAX_DOWNLOAD_BYTES * 1.5) return `more than ${MAX_DOWNLOAD_BYTES} bytes`;
    let bytes: Uint8Array;
    try {
      bytes =
        typeof resource.blob === 'string'
          ? decodeBase64(resource.blob)
          : new TextEncoder().encode(typeof resource.text === 'string' ? resource.text : '');
    } catch {
      return `${fileNameOf(resource.uri)} is not valid base64`;
    }
    total += bytes.length;
    if (total > MAX_DOWNLOAD_BYTES) return `more than ${MAX_DOWNLOAD_BYTES} bytes`;
    const mimeType = typeof resource.mimeType === 'string' ? resource.mimeType.slice(0, 100) : 'unknown type';
    files.push({ name: fileNameOf(resource.uri), mimeType, bytes });
  }
  return files;
}
