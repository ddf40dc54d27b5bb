/**
 * `createHost({ config })` with an object: the content of a config file written in code is checked as a file's is
 * (a mistake is a ConfigError naming the key, not a crash inside the host), and a loaded config may leave out the
 * fields with empty defaults.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, createHost, TrustStore } from '../../src/index.js';
import { exampleServer } from '../helpers/project.js';

const quiet = { auditSink: false as const, trustStore: TrustStore.inMemory() };

describe('createHost with a config object', () => {
  it("takes the file's own format, servers keyed by name, and connects them", async () => {
    const host = await createHost({
      ...quiet,
      config: {
        mcpServers: {
          calculator: { command: process.execPath, args: [exampleServer('calculator')], trust: 'trusted' },
        },
        permissions: { deny: ['calculator__divide'] },
      },
    });
    try {
      expect(host.failures()).toEqual([]);
      expect(host.catalog().entries.map((entry) => entry.name)).toContain('calculator__add_numbers');
      expect(host.config.permissions.deny).toEqual(['calculator__divide']);
      const sum = await host.callTool('calculator__add_numbers', { a: 5, b: 7 });
      expect(sum.result.content).toEqual([{ type: 'text', text: '12' }]);
      expect((await host.callTool('calculator__divide', { a: 1, b: 1 })).outcome).toBe('denied');
    } finally {
      await host.close();
    }
  }, 60_000);

  it('refuses a mistake in it with a ConfigError that names the key', async () => {
    const refused = await createHost({ ...quiet, config: { mcpServers: { a: { command: 42 } } } }).catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(ConfigError);
    expect((refused as Error).message).toMatch(/mcpServers\.a\.command: expected a command to run/);
    await expect(
      createHost({ ...quiet, config: { mcpServers: { a: { command: 'x', url: 'http://127.0.0.1:1/mcp' } } } }),
    ).rejects.toThrow(/mcpServers\.a: expected either `command`.*not both/);
  });

  it('takes a loaded config that leaves out permissions, secrets and warnings', async () => {
    const host = await createHost({ ...quiet, config: { servers: [] } as never });
    try {
      expect(host.config.permissions).toEqual({ allow: [], ask: [], deny: [] });
      expect(host.catalog().entries).toEqual([]);
    } finally {
      await host.close();
    }
  });
});
