/**
 * A server that fails to start, or answers `initialize` with a protocol version the client does not know:
 * a clear error naming the server (and both versions) with its stderr tail, while the other servers work.
 */
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { fixtureServerPath } from '../fixtures/servers/fixture-servers.js';
import { hostConfig, stdioServer } from '../helpers/configs.js';
import { closeHosts, openFaultHost, resultText } from './fault-helpers.js';

afterEach(closeHosts);

describe('servers that cannot be used', () => {
  it('reports each with its reason and stderr tail while the other servers work', async () => {
    const diagnostics: string[] = [];
    const started = performance.now();
    const host = await openFaultHost(
      hostConfig([
        stdioServer('broken', [fixtureServerPath('fails-to-start')]),
        stdioServer('ancient', [fixtureServerPath('wrong-protocol')]),
        stdioServer('missing', [], { command: 'no-such-command-for-mcp-host-tests' }),
        stdioServer('counter', [fixtureServerPath('counter')]),
      ]),
      { onDiagnostic: (message) => diagnostics.push(message) },
    );
    console.info(`3 failing servers and 1 working: host ready in ${Math.round(performance.now() - started)} ms`);
    const failure = (server: string) => host.failures().find((entry) => entry.server === server)?.message ?? '';

    expect(failure('broken')).toContain(
      'server "broken" failed to start: it exited with code 1 before answering initialize',
    );
    expect(failure('broken')).toContain('cannot open configuration file ./missing-config.toml (ENOENT)');

    const ancient = failure('ancient');
    const [explanation, tail] = ancient.split('stderr tail:');
    expect(explanation).toContain('server "ancient" failed to start');
    // Both versions: the one the server answered and the one the client asked for (and what it supports).
    expect(explanation).toContain('protocol version 1999-01-01');
    const asked = /client asked for (\S+)\)/.exec(tail ?? '')?.[1];
    expect(asked).toBeDefined();
    expect(explanation).toContain(`the client asked for ${asked}`);
    expect(explanation).toContain(SUPPORTED_PROTOCOL_VERSIONS.join(', '));
    expect(tail).toContain('answered initialize');

    expect(failure('missing')).toContain('server "missing" failed to start');
    expect(failure('missing')).toContain('no-such-command-for-mcp-host-tests');

    for (const server of ['broken', 'ancient', 'missing']) {
      expect(host.servers().find((status) => status.name === server)?.state).toBe('failed');
      expect(diagnostics.some((line) => line.includes(`server "${server}"`))).toBe(true);
    }
    expect(host.servers().find((status) => status.name === 'counter')?.state).toBe('connected');
    expect(resultText((await host.callTool('counter__echo', { text: 'works' })).result)).toBe('works');
    // A call to a failed server's tool is an error result, not a crash.
    const unknown = await host.callTool('broken__anything', {});
    expect(unknown.result.isError).toBe(true);
  });
});
