/**
 * Restarting a server and switching it off and on while the host runs, against real servers: a restart starts a new
 * process whose tools are offered again; a server switched off leaves the catalog (its tools are neither offered
 * nor callable) until it is switched on; a server the config disables can be switched on for this host; each change
 * is audited. The config file is never rewritten.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditRecord } from '../../src/audit/audit-record.js';
import { createMemoryAuditSink } from '../../src/audit/audit-sink.js';
import { createHost, type Host } from '../../src/host/create-host.js';
import { TrustStore } from '../../src/policy/trust-store.js';
import { hostConfig, stdioServer } from '../helpers/configs.js';
import { exampleServer, isAlive } from '../helpers/project.js';

let host: Host;
const sink = createMemoryAuditSink();

const toolNames = () => host.toolDefinitions().map((tool) => tool.name);
const statusOf = (name: string) => host.servers().find((server) => server.name === name)!;
const records = (): AuditRecord[] => sink.records;
/** The servers `onToolsChanged` named, in order. */
const toolsChanged: string[] = [];

beforeAll(async () => {
  host = await createHost({
    config: hostConfig([
      stdioServer('calculator', [exampleServer('calculator')], { trust: 'trusted' }),
      stdioServer('spare', [exampleServer('calculator')], { trust: 'trusted', disabled: true }),
    ]),
    auditSink: sink,
    trustStore: TrustStore.inMemory(),
    onToolsChanged: (server) => toolsChanged.push(server),
  });
}, 60_000);

afterAll(async () => {
  await host?.close();
});

describe('server controls', () => {
  it('restarts a server: a new process, its tools offered and callable again, audited', async () => {
    const before = statusOf('calculator').pid!;
    expect(isAlive(before)).toBe(true);
    toolsChanged.length = 0;
    const status = await host.restartServer('calculator');
    // Its tools left as it stopped and came back as it started: a listener (the gateway's clients) hears both.
    expect(toolsChanged).toEqual(['calculator', 'calculator']);
    expect(status.state).toBe('connected');
    expect(status.pid).toBeDefined();
    expect(status.pid).not.toBe(before);
    expect(isAlive(before)).toBe(false);
    expect(toolNames()).toContain('calculator__add_numbers');
    const call = await host.callTool('calculator__add_numbers', { a: 2, b: 3 });
    expect(call.outcome).toBe('ok');
    const exit = records().find((record) => record.type === 'server-exit' && record.server === 'calculator');
    expect(exit).toMatchObject({ reason: 'restarted' });
    expect(records().filter((record) => record.type === 'server-start' && record.server === 'calculator')).toHaveLength(
      2,
    );
  });

  it('switches a server off: closed, its tools leave the catalog at once and cannot be called, until it is switched on', async () => {
    const pid = statusOf('calculator').pid!;
    toolsChanged.length = 0;
    const status = await host.disableServer('calculator');
    expect(toolsChanged).toEqual(['calculator']);
    expect(status).toMatchObject({ name: 'calculator', state: 'idle', disabled: true });
    expect(isAlive(pid)).toBe(false);
    expect(toolNames().filter((name) => name.startsWith('calculator__'))).toEqual([]);
    expect(host.catalog().entries.some((entry) => entry.server === 'calculator')).toBe(false);
    const refused = await host.callTool('calculator__add_numbers', { a: 2, b: 3 });
    expect(refused.outcome).not.toBe('ok');
    expect(refused.result.content).toEqual([{ type: 'text', text: expect.stringMatching(/Unknown tool/) }]);
    await expect(host.restartServer('calculator')).rejects.toThrow(/"calculator" is disabled; enable it/);
    expect(records()).toContainEqual(
      expect.objectContaining({ type: 'server-exit', server: 'calculator', reason: 'disabled' }),
    );

    const enabled = await host.enableServer('calculator');
    expect(enabled.state).toBe('connected');
    expect(enabled.disabled).toBeUndefined();
    expect(toolNames()).toContain('calculator__add_numbers');
    expect((await host.callTool('calculator__add_numbers', { a: 20, b: 22 })).result.content).toEqual([
      { type: 'text', text: '42' },
    ]);
  });

  it('switches on, for this host only, a server the config disables; an unknown name is refused', async () => {
    expect(statusOf('spare')).toMatchObject({ state: 'idle', disabled: true });
    expect(toolNames().some((name) => name.startsWith('spare__'))).toBe(false);
    const status = await host.enableServer('spare');
    expect(status.state).toBe('connected');
    expect(toolNames()).toContain('spare__add_numbers');
    expect(host.config.servers.find((server) => server.name === 'spare')?.disabled).toBe(true);
    await expect(host.disableServer('nope')).rejects.toThrow(/no server is named "nope"/);
  });
});
