import { describe, expect, it } from 'vitest';
import { createAnthropicProvider } from '../../../src/providers/anthropic/anthropic-provider.js';
import { type Message, ProviderError } from '../../../src/providers/types.js';
import { startMockLlmServer } from '../../../src/testing/mock-llm/mock-llm-server.js';
import { startSse, writeSseFrame } from '../../../src/testing/mock-llm/sse.js';
import type { MockWire } from '../../../src/testing/mock-llm/wire.js';
import { anthropicWire } from '../../../src/testing/mock-llm/wires/anthropic.js';
import type { Script } from '../../../src/testing/script-types.js';

// Wires that misbehave on purpose: the script only has to produce a turn for them to cut short.
const script: Script = { scenarios: [{ turns: [{ text: 'A long answer that never arrives whole.' }] }] };
const tools = [{ name: 'clock__now', description: 'The time', inputSchema: { type: 'object' } }];
const question: Message = { role: 'user', content: [{ type: 'text', text: 'What time is it?' }] };

/** The message a `message_start` frame opens: nothing in it yet, no stop reason. */
function startedMessage(model: string) {
  return {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model,
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: 1, output_tokens: 1 },
  };
}

describe('createAnthropicProvider when a stream is cut short', () => {
  it('rejects with the abort reason when aborted mid-stream', async () => {
    // A wire that starts an answer and never finishes it, like a model still generating.
    const stalledWire: MockWire = {
      ...anthropicWire,
      writeAnswer(res, _answer, view) {
        startSse(res);
        const send = (type: string, fields: Record<string, unknown>) => writeSseFrame(res, { type, ...fields }, type);
        send('message_start', { message: startedMessage(view.model) });
        send('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
        send('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'Thinking about it' } });
      },
    };
    const stalled = await startMockLlmServer({ script, wires: [stalledWire] });
    try {
      const anthropic = createAnthropicProvider({ model: 'm', apiKey: 'k', baseUrl: stalled.url, maxRetries: 0 });
      const controller = new AbortController();
      const deltas: string[] = [];
      const outcome = anthropic.generate(
        { tools, messages: [question] },
        {
          stream: true,
          signal: controller.signal,
          onTextDelta: (text) => {
            deltas.push(text);
            controller.abort(new Error('stopped mid-answer'));
          },
        },
      );
      await expect(outcome).rejects.toThrow('stopped mid-answer');
      expect(deltas).toEqual(['Thinking about it']);
    } finally {
      await stalled.close();
    }
  });

  it('reports a stream the server ends before message_stop as a retryable ProviderError', async () => {
    const truncatingWire: MockWire = {
      ...anthropicWire,
      writeAnswer(res, _answer, view) {
        startSse(res);
        writeSseFrame(res, { type: 'message_start', message: startedMessage(view.model) }, 'message_start');
        res.end();
      },
    };
    const truncating = await startMockLlmServer({ script, wires: [truncatingWire] });
    try {
      const anthropic = createAnthropicProvider({ model: 'm', apiKey: 'k', baseUrl: truncating.url, maxRetries: 0 });
      const error = await anthropic
        .generate({ tools, messages: [question] }, { stream: true })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ProviderError);
      expect((error as ProviderError).details).toMatchObject({ provider: 'anthropic', retryable: true });
      expect((error as ProviderError).message).toContain('message_stop');
    } finally {
      await truncating.close();
    }
  });
});
