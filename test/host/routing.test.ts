/** Awkward tool names from real servers: all distinct, all valid for every provider, all route back. */
import { describe, expect, it } from 'vitest';
import { createHost } from '../../src/host/create-host.js';
import { TrustStore } from '../../src/policy/trust-store.js';
import { bundledFixture } from '../helpers/bundled-fixture.js';
import { hostConfig, stdioServer } from '../helpers/configs.js';
import { repoRoot } from '../helpers/project.js';

const flexible = bundledFixture(`${repoRoot}/test/fixtures/host/flexible-server.mjs`);
const awkward = [
  'read.file',
  'read/file',
  'read file',
  'read_file',
  '9lives',
  'x'.repeat(90),
  'naïve-ünïcode',
  'shared',
];

describe('tool naming and routing', () => {
  it('routes every namespaced name back to its server and original tool', async () => {
    const host = await createHost({
      config: hostConfig([
        stdioServer('alpha', [flexible], { env: { SERVER_LABEL: 'alpha', TOOL_NAMES: JSON.stringify(awkward) } }),
        stdioServer('beta.server', [flexible], {
          env: { SERVER_LABEL: 'beta', TOOL_NAMES: JSON.stringify(['shared']) },
        }),
      ]),
    });
    try {
      const entries = host.catalog().entries;
      const names = entries.map((entry) => entry.name);
      expect(new Set(names).size).toBe(names.length);
      for (const name of names) expect(name).toMatch(/^[A-Za-z_][A-Za-z0-9_-]{0,63}$/);
      // The catalog is sorted and the definitions follow it.
      expect([...names].sort()).toEqual(names);
      expect(host.toolDefinitions().map((tool) => tool.name)).toEqual(names);

      for (const original of awkward) {
        const entry = entries.find((candidate) => candidate.server === 'alpha' && candidate.tool.name === original);
        expect(entry, original).toBeDefined();
        const call = await host.callTool(entry!.name, {});
        expect(call.result.content).toEqual([{ type: 'text', text: `alpha/${original}` }]);
      }
      const betaShared = entries.find((entry) => entry.server === 'beta.server' && entry.tool.name === 'shared')!;
      const alphaShared = entries.find((entry) => entry.server === 'alpha' && entry.tool.name === 'shared')!;
      expect(betaShared.name).not.toBe(alphaShared.name);
      expect((await host.callTool(betaShared.name, {})).result.content).toEqual([
        { type: 'text', text: 'beta/shared' },
      ]);
    } finally {
      await host.close();
    }
  });

  it('answers an unknown tool name with an error result naming close names', async () => {
    // Its own trust store: an earlier test ran another "alpha" (other env), which would make this one a changed server.
    const host = await createHost({
      config: hostConfig([stdioServer('alpha', [flexible])]),
      trustStore: TrustStore.inMemory(),
    });
    try {
      const call = await host.callTool('alpha__slep', {});
      expect(call.outcome).toBe('invalid');
      expect(call.result.isError).toBe(true);
      expect(JSON.stringify(call.result.content)).toContain('alpha__sleep');
    } finally {
      await host.close();
    }
  });
});
