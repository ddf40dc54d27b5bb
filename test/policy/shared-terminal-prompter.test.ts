/**
 * The tool-call approver and the sampling/elicitation dialogs share one reader of the terminal:
 * each typed line reaches exactly one question, in the order the questions were asked.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { ToolApprovalRequest } from '../../src/policy/approver.js';
import { createLinePrompter } from '../../src/policy/line-prompter.js';
import { createTerminalApprover } from '../../src/policy/terminal-approver.js';
import { waitUntil } from '../helpers/wait-until.js';

const request: ToolApprovalRequest = {
  callId: 'call_1',
  serverName: 'fs',
  toolName: 'fs__write_file',
  originalToolName: 'write_file',
  arguments: { path: 'notes.txt' },
  annotations: {},
  trust: 'untrusted',
  reason: 'Server fs is untrusted.',
  warnings: [],
  hiddenContent: [],
  canAlwaysAllow: true,
};

describe('a terminal approver on a shared prompter', () => {
  it('takes only the line typed for its own question', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let printed = '';
    output.on('data', (chunk: Buffer) => {
      printed += chunk.toString();
    });
    const prompter = createLinePrompter({ input, output });
    const approver = createTerminalApprover({ input, output, prompter });
    try {
      // Another dialog (say, a sampling request) asks first; the approver's question waits its turn.
      const other = prompter.exclusive(() => prompter.ask('Allow sampling? (a/d) '));
      const approval = approver.approveToolCall(request);
      input.write('a\n');
      expect(await other).toBe('a');
      // Typed once the approver has asked, as a person would: the line is the answer to its question.
      await waitUntil(() => printed.includes('Your choice'), "the approver's question", 20_000, 5);
      input.write('d\n');
      // The "a" typed for the first dialog was not taken as "always allow".
      expect(await approval).toBe('deny');
    } finally {
      approver.close();
      prompter.close();
    }
  });
});
