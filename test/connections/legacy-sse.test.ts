/** A server that speaks only the legacy HTTP+SSE transport: reached as `type: "sse"`, and as `http` by fallback. */
import { type ChildProcess, spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHost } from '../../src/host/create-host.js';
import { bundledFixture } from '../helpers/bundled-fixture.js';
import { hostConfig, httpServer } from '../helpers/configs.js';
import { repoRoot, temporaryDirectory } from '../helpers/project.js';

let server: ChildProcess | undefined;
let url = '';

beforeAll(async () => {
  server = spawn(process.execPath, [bundledFixture(`${repoRoot}/test/fixtures/host/legacy-sse-server.mjs`)], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    server!.stderr!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /listening (\S+)/.exec(seen);
      if (match) resolve(match[1]!);
    });
    server!.once('exit', (code) => reject(new Error(`the legacy SSE server exited with ${code}: ${seen}`)));
  });
});

afterAll(() => {
  server?.kill('SIGTERM');
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
