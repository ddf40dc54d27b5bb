/**
 * Where a root, written as a folder path or a URI, points: a path resolves against a folder, a URI is taken as
 * written. Only a `file://` one is a local folder; what to say of any other is the caller's.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const URI_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;

/** `entry` as a URL (a path as a `file://` one, resolved against `baseDirectory`); undefined for a URI that does not parse. */
export function rootUrl(entry: string, baseDirectory: string): URL | undefined {
  if (!URI_SCHEME.test(entry)) return pathToFileURL(path.resolve(baseDirectory, entry));
  return URL.canParse(entry) ? new URL(entry) : undefined;
}
