/** A server that speaks only the legacy HTTP+SSE transport: reached as `type: "sse"`, and as `http` by fallback. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHost } from '../../src/host/create-host.js';
import { hostConfig, httpServer } from '../helpers/configs.js';
import { type LegacySseServer, startLegacySseServer } from '../helpers/legacy-sse-server.js';
import { temporaryDirectory } from '../helpers/project.js';

let server: LegacySseServer | undefined;
let url = '';

beforeAll(async () => {
  server = await startLegacySseServer();
  url = server.url;
});

afterAll(async () => {
  await server?.stop();
});

function remote(transport: 'http' | 'sse') {
  return hostConfig([httpServer('legacy', url, { transport, trust: 'trusted' })]);
}

describe('legacy HTTP+SSE servers', () => {
  it.each(['sse', 'http'] as const)('connects with type "%s" and calls a tool', async (transport) => {
    const host = await createHost({ config: remote(transport), stateDir: await temporaryDirectory() });
    try {
      expect(host.servers()[0]).toMatchObject({ state: 'connected', transport });
      expect(host.catalog().entries.map((entry) => entry.name)).toEqual(['legacy__add_numbers']);
      const call = await host.callTool('legacy__add_numbers', { a: 5, b: 7 });
      expect(call.result).toMatchObject({ isError: false, content: [{ type: 'text', text: '12' }] });
    } finally {
      await host.close();
    }
  });
});
