import { describe, expect, it } from 'vitest';
import {
  appendTextualToolCallNote,
  detectTextualToolCall,
} from '../../../src/providers/openai-compatible/detect-textual-tool-call.js';
import type { ModelResponse } from '../../../src/providers/types.js';

const tools = ['weather__get', 'clock__now'];

describe('detectTextualToolCall', () => {
  it('finds a printed JSON call of a known tool, bare, in a code fence or in prose', () => {
    expect(detectTextualToolCall('{"name": "weather__get", "arguments": {"city": "Oslo"}}', tools)?.name).toBe(
      'weather__get',
    );
    expect(detectTextualToolCall('Sure:\n```json\n{"name":"clock__now","parameters":{}}\n```', tools)?.name).toBe(
      'clock__now',
    );
    expect(detectTextualToolCall('I will call {"function": {"name": "clock__now"}} now', tools)?.name).toBe(
      'clock__now',
    );
  });

  it('finds Hermes-style <tool_call> tags, even with broken JSON inside', () => {
    const text = '<tool_call>\n{"name": "weather__get", "arguments": {"city": "Oslo"}}\n</tool_call>';
    expect(detectTextualToolCall(text, tools)).toEqual({
      name: 'weather__get',
      text: '{"name": "weather__get", "arguments": {"city": "Oslo"}}',
    });
    expect(detectTextualToolCall('<tool_call>{"name": "clock__now", "arguments": {', tools)?.name).toBe('clock__now');
  });

  it('ignores unknown tools, plain JSON data, and an unbalanced brace before a real call', () => {
    expect(detectTextualToolCall('{"name": "rm_rf", "arguments": {}}', tools)).toBeUndefined();
    expect(detectTextualToolCall('The result is {"name": "weather__get"} as data.', tools)).toBeUndefined();
    expect(detectTextualToolCall('No JSON here.', tools)).toBeUndefined();
    expect(detectTextualToolCall('a { b {"name":"clock__now","arguments":{}}', tools)?.name).toBe('clock__now');
  });
});

describe('appendTextualToolCallNote', () => {
  it('appends a note saying the tool was not run, only when no real call was made', () => {
    const response: ModelResponse = {
      message: { role: 'assistant', content: [{ type: 'text', text: '{"name":"clock__now","arguments":{}}' }] },
      stopReason: 'end',
    };
    const note = appendTextualToolCallNote(response, tools);
    expect(note).toMatch(/"clock__now" as text instead of calling it, so the tool was not run/);
    expect(response.message.content).toHaveLength(2);
    expect(response.message.content[1]).toEqual({ type: 'text', text: note });

    const real: ModelResponse = {
      message: {
        role: 'assistant',
        content: [
          { type: 'text', text: '{"name":"clock__now","arguments":{}}' },
          { type: 'tool-call', id: 'c', name: 'clock__now', argumentsText: '{}' },
        ],
      },
      stopReason: 'tool-calls',
    };
    expect(appendTextualToolCallNote(real, tools)).toBeUndefined();
    expect(real.message.content).toHaveLength(2);
  });
});
