/** The library's entry point exposes what the README's library example and a custom approver need. */
import { describe, expect, it } from 'vitest';
import * as library from '../../src/index.js';
import { createScriptedProvider } from '../../src/testing/scripted-provider.js';
import { hostConfig, stdioServer } from '../helpers/configs.js';
import { exampleServer } from '../helpers/project.js';
import { recordingApprover } from '../helpers/recording-approver.js';

describe('public API', () => {
  it('exports the host, the approvers, the trust store and the audit sinks', () => {
    for (const name of [
      'createHost',
      'loadConfig',
      'runAgent',
      'createHeadlessApprover',
      'createTerminalApprover',
      'createYesApprover',
      'TrustStore',
      'createJsonlAuditLog',
      'createMemoryAuditSink',
      'readAuditLog',
      'createHeadlessClientRequestApprover',
    ]) {
      expect(typeof (library as Record<string, unknown>)[name], name).toBe('function');
    }
  });

  it('exports every error class the host throws, so callers can tell them apart', async () => {
    for (const name of [
      'ServerControlError',
      'PromptChoiceError',
      'SessionFileError',
      'UnknownSessionError',
      'ConfigError',
      'ModelChoiceError',
      'TrustStoreError',
      'CallFailure',
    ]) {
      expect(typeof (library as Record<string, unknown>)[name], name).toBe('function');
    }
    const host = await library.createHost({
      config: hostConfig([stdioServer('calculator', [exampleServer('calculator')], { trust: 'trusted' })]),
      provider: createScriptedProvider({ scenarios: [] }),
      approver: library.createYesApprover(),
      auditSink: library.createMemoryAuditSink(),
      trustStore: library.TrustStore.inMemory(),
    });
    try {
      await expect(host.restartServer('missing')).rejects.toBeInstanceOf(library.ServerControlError);
      await expect(host.prompts.get('missing')).rejects.toBeInstanceOf(library.PromptChoiceError);
    } finally {
      await host.close();
    }
  }, 60_000);

  it('runs a host with a custom approver and an in-memory audit sink', async () => {
    const sink = library.createMemoryAuditSink();
    const { approver, asked } = recordingApprover('deny');
    const provider = createScriptedProvider({
      scenarios: [
        {
          turns: [
            { toolCalls: [{ name: 'calculator__add_numbers', arguments: { a: 5, b: 7 } }] },
            { text: '{{lastToolResult}}' },
          ],
        },
      ],
    });
    const host = await library.createHost({
      config: hostConfig([stdioServer('calculator', [exampleServer('calculator')])]),
      provider,
      approver,
      auditSink: sink,
      trustStore: library.TrustStore.inMemory(),
    });
    try {
      const result = await host.run('What is 5 plus 7?');
      // An untrusted server's read-only hint does not auto-approve: the approver was asked and said no.
      expect(asked).toEqual(['calculator__add_numbers']);
      expect(result.text).toBe('User denied this call.');
      const calls = sink.records.filter((record) => record.type === 'tool-call');
      expect(calls).toEqual([
        expect.objectContaining({ tool: 'calculator__add_numbers', decision: 'deny', outcome: 'denied' }),
      ]);
    } finally {
      await host.close();
    }
  });
});

describe('host.stream()', () => {
  it('stops the run when the consumer breaks out of the loop: no call after that', async () => {
    const sink = library.createMemoryAuditSink();
    const call = { name: 'calculator__add_numbers', arguments: { a: 1, b: 2 } };
    const provider = createScriptedProvider({
      scenarios: [{ turns: [{ toolCalls: [call] }, { toolCalls: [call] }, { toolCalls: [call] }, { text: 'done' }] }],
    });
    const host = await library.createHost({
      config: hostConfig([stdioServer('calculator', [exampleServer('calculator')], { trust: 'trusted' })]),
      provider,
      approver: library.createYesApprover(),
      auditSink: sink,
      trustStore: library.TrustStore.inMemory(),
    });
    try {
      for await (const event of host.stream('add')) {
        if (event.type === 'tool-call-end') break;
      }
      const callsAtBreak = sink.records.filter((record) => record.type === 'tool-call').length;
      expect(callsAtBreak).toBe(1);
      // Give a run that was not stopped every chance to make its next calls.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(sink.records.filter((record) => record.type === 'tool-call')).toHaveLength(1);
    } finally {
      await host.close();
    }
  }, 60_000);
});
