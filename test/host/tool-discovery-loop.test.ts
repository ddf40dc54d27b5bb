/**
 * Dynamic discovery in the host's own loop: with `toolDiscovery: "always"` the model is offered only the
 * meta-tools, and a `call_tool` runs the named tool through the host's executor, so consent and the audit apply.
 */
import { describe, expect, it } from 'vitest';
import * as library from '../../src/index.js';
import { createScriptedProvider } from '../../src/testing/scripted-provider.js';
import { hostConfig, stdioServer } from '../helpers/configs.js';
import { exampleServer } from '../helpers/project.js';
import { recordingApprover } from '../helpers/recording-approver.js';

describe('toolDiscovery in host.run()', () => {
  it('offers the meta-tools, finds a tool and calls it through consent and the audit', async () => {
    const sink = library.createMemoryAuditSink();
    const { approver, asked } = recordingApprover('allow-once');
    const provider = createScriptedProvider({
      scenarios: [
        {
          turns: [
            { toolCalls: [{ name: 'search_tools', arguments: { query: 'add two numbers' } }] },
            {
              toolCalls: [
                { name: 'call_tool', arguments: { name: 'calculator__add_numbers', arguments: { a: 5, b: 7 } } },
              ],
            },
            { text: '{{lastToolResult}}' },
          ],
        },
      ],
    });
    const host = await library.createHost({
      config: hostConfig([stdioServer('calculator', [exampleServer('calculator')])], { toolDiscovery: 'always' }),
      provider,
      approver,
      auditSink: sink,
      trustStore: library.TrustStore.inMemory(),
    });
    try {
      const result = await host.run('What is 5 plus 7?');
      expect(provider.requests[0]!.tools.map((tool) => tool.name)).toEqual([
        'search_tools',
        'describe_tool',
        'call_tool',
      ]);
      // The same bytes on every turn, for providers' prompt caches.
      expect(JSON.stringify(provider.requests[2]!.tools)).toBe(JSON.stringify(provider.requests[0]!.tools));
      expect(result.text).toContain('12');
      expect(asked).toEqual(['calculator__add_numbers']);
      const calls = sink.records.filter((record) => record.type === 'tool-call');
      expect(calls).toEqual([
        expect.objectContaining({ tool: 'calculator__add_numbers', decision: 'allow', outcome: 'ok' }),
      ]);
    } finally {
      await host.close();
    }
  }, 60_000);
});
