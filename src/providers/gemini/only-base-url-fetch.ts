/**
 * The fetch the Gemini SDK is given. It refuses any URL outside the configured base URL (the SDK
 * has code paths that reach other Google hosts: Vertex, auth, file uploads; none may be used
 * behind the host's back), and it reports the exact JSON body of the request, which the SDK builds
 * from its parameters in its own shape (`config` → `generationConfig`…), for `--trace` and tests.
 */

import { ProviderError } from '../types.js';

export function onlyBaseUrlFetch(baseUrl: string, onBody: (body: unknown) => void): typeof fetch {
  const allowedPrefix = `${baseUrl}/`;
  return async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (!url.startsWith(allowedPrefix)) {
      throw new ProviderError(
        `The Gemini SDK tried to reach ${new URL(url).origin}, outside the configured base URL ${baseUrl}; the request was refused.`,
        { provider: 'gemini', retryable: false },
      );
    }
    if (typeof init?.body === 'string') onBody(parseJson(init.body));
    return fetch(input, init);
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
