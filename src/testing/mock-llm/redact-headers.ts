/**
 * Recorded requests are shown to users and written into test output, so credentials in them are
 * replaced before they are stored: headers that carry keys, and a `key` query parameter (Gemini).
 */
import type { IncomingHttpHeaders } from 'node:http';

const redactedValue = '<redacted>';

const credentialHeaders = new Set([
  'authorization',
  'proxy-authorization',
  'x-api-key',
  'api-key',
  'x-goog-api-key',
  'cookie',
]);

const credentialQueryParameters = new Set(['key', 'api_key', 'api-key']);

export function redactHeaders(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const result: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    result[name] = credentialHeaders.has(name.toLowerCase()) ? redactedValue : value;
  }
  return result;
}

/** Replaces credential query parameters in a request target such as `/v1beta/models/x?key=…`. */
export function redactPath(path: string): string {
  const queryStart = path.indexOf('?');
  if (queryStart === -1) return path;
  const parameters = new URLSearchParams(path.slice(queryStart + 1));
  let changed = false;
  for (const name of [...parameters.keys()]) {
    if (credentialQueryParameters.has(name.toLowerCase())) {
      parameters.set(name, redactedValue);
      changed = true;
    }
  }
  return changed ? `${path.slice(0, queryStart)}?${parameters.toString()}` : path;
}
