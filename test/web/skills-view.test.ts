/** Which skills a conversation loaded, as the Skills page shows them: read from the conversation's history. */
import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/providers/types.js';
import { loadedSkills } from '../../src/web/skills-view.js';

const call = (id: string, name: string, argumentsText: string): Message => ({
  role: 'assistant',
  content: [{ type: 'tool-call', id, name, argumentsText }],
});
const result = (callId: string, isError: boolean): Message => ({
  role: 'tool',
  results: [{ callId, toolName: 'load_skill', content: [{ type: 'text', text: 'body' }], isError }],
});

describe('the skills a conversation loaded', () => {
  it('are the load_skill calls that succeeded, first load first, each once', () => {
    const history: Message[] = [
      { role: 'user', content: [{ type: 'text', text: 'Write the stock report' }] },
      call('1', 'load_skill', '{"name":"stock-report"}'),
      result('1', false),
      call('2', 'load_skill', '{"name":"deploy"}'),
      result('2', true),
      call('3', 'read_skill_file', '{"name":"notes","path":"a.md"}'),
      result('3', false),
      call('4', 'load_skill', 'not json'),
      result('4', false),
      call('5', 'load_skill', '{"name":"stock-report"}'),
      result('5', false),
      call('6', 'load_skill', '{"name":"notes"}'),
      result('6', false),
    ];
    expect(loadedSkills(history)).toEqual(['stock-report', 'notes']);
    expect(loadedSkills([])).toEqual([]);
  });
});
