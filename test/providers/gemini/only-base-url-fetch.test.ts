import { describe, expect, it } from 'vitest';
import { onlyBaseUrlFetch } from '../../../src/providers/gemini/only-base-url-fetch.js';
import { ProviderError } from '../../../src/providers/types.js';
import { useMockLlmServer } from '../../helpers/mock-llm.js';

describe('the fetch given to the Gemini SDK', () => {
  const server = useMockLlmServer({ script: { scenarios: [] } }, { keepRequests: true });

  it('passes requests under the base URL through and reports their JSON body', async () => {
    const bodies: unknown[] = [];
    const guarded = onlyBaseUrlFetch(server.url, (body) => bodies.push(body));
    const response = await guarded(`${server.url}/v1beta/models/m:generateContent`, {
      method: 'POST',
      body: JSON.stringify({ contents: [] }),
    });
    expect(response.status).toBe(401);
    expect(bodies).toEqual([{ contents: [] }]);
    expect(server.requests).toHaveLength(1);
  });

  it('refuses any other host, and other paths when the base URL has one, before sending anything', async () => {
    const before = server.requests.length;
    const guarded = onlyBaseUrlFetch(`${server.url}/gemini`, () => {});
    for (const url of [
      'https://generativelanguage.googleapis.com/v1beta/models',
      `${server.url}/other/v1beta/models`,
    ]) {
      const failure = await guarded(url, { method: 'POST', body: '{}' }).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(ProviderError);
      expect((failure as ProviderError).message).toMatch(/outside the configured base URL/);
    }
    expect(server.requests).toHaveLength(before);
  });
});
