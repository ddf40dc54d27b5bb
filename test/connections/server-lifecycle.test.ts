/** Servers that fail to start, die mid-call, or hide a grandchild: the host survives each. */
import { describe, expect, it } from 'vitest';
import { createHost } from '../../src/host/create-host.js';
import { bundledFixture } from '../helpers/bundled-fixture.js';
import { hostConfig, stdioServer } from '../helpers/configs.js';
import { exampleServer, isAlive, processGroupMembers, repoRoot } from '../helpers/project.js';

const flexible = bundledFixture(`${repoRoot}/test/fixtures/host/flexible-server.mjs`);

describe('server lifecycle', () => {
  it('reports a server that fails to start, with its exit code and stderr tail, while the others work', async () => {
    const diagnostics: string[] = [];
    const host = await createHost({
      config: hostConfig([
        stdioServer('broken', [`${repoRoot}/test/fixtures/host/fails-at-start.mjs`]),
        stdioServer('calculator', [exampleServer('calculator')]),
      ]),
      onDiagnostic: (message) => diagnostics.push(message),
    });
    try {
      const failure = host.failures().find((entry) => entry.server === 'broken');
      expect(failure?.message).toContain('server "broken" failed to start');
      expect(failure?.message).toContain('exited with code 3');
      expect(failure?.message).toContain('the database password is wrong');
      expect(diagnostics.join('\n')).toContain('broken');
      expect(host.servers().find((server) => server.name === 'broken')?.state).toBe('failed');
      const call = await host.callTool('calculator__add_numbers', { a: 5, b: 7 });
      expect(call.result).toMatchObject({ isError: false, content: [{ type: 'text', text: '12' }] });
    } finally {
      await host.close();
    }
  });

  it('fails a call whose server is killed mid-call with the signal and stderr tail; other servers carry on', async () => {
    const host = await createHost({
      config: hostConfig([
        stdioServer('victim', [flexible], { env: { SERVER_LABEL: 'victim' } }),
        stdioServer('calculator', [exampleServer('calculator')]),
      ]),
    });
    try {
      const call = await host.callTool('victim__crash', {});
      expect(call.outcome).toBe('crashed');
      expect(call.result.isError).toBe(true);
      const text = call.result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
      expect(text).toContain('"victim"');
      expect(text).toContain('SIGKILL');
      expect(text).toContain('about to be killed in the middle of a call');
      expect(host.servers().find((server) => server.name === 'victim')?.state).toBe('crashed');
      const next = await host.callTool('calculator__add_numbers', { a: 1, b: 2 });
      expect(next.result.content).toEqual([{ type: 'text', text: '3' }]);
    } finally {
      await host.close();
    }
  });

  it('leaves no process behind on close, also for a server started through a shell with a grandchild', async () => {
    const host = await createHost({
      config: hostConfig([
        stdioServer('wrapped', ['-c', `sleep 300 & exec "${process.execPath}" "${flexible}"`], { command: 'sh' }),
      ]),
    });
    let group: number | undefined;
    try {
      const status = host.servers()[0]!;
      expect(status.state).toBe('connected');
      group = status.pid!;
      const members = await processGroupMembers(group);
      // The server itself and the `sleep` grandchild the shell left behind.
      expect(members.length).toBeGreaterThanOrEqual(2);
    } finally {
      await host.close();
    }
    expect(await processGroupMembers(group)).toEqual([]);
    expect(isAlive(group)).toBe(false);
  });
});
