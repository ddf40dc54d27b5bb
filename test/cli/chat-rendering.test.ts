/**
 * What the chat prints for a turn, without a terminal: Markdown rendered as it streams (pieces split anywhere),
 * plain text with NO_COLOR or a pipe, control codes from the model or a server never reaching the terminal, and the
 * one-line tool call with its secrets redacted and its number, and `/expand N` showing that call in full (redacted,
 * stripped, bounded).
 */
import { describe, expect, it } from 'vitest';
import type { ChatContext } from '../../src/cli/chat/chat-context.js';
import { createChatOutput } from '../../src/cli/chat/chat-output.js';
import { expandCommand } from '../../src/cli/chat/expand-command.js';
import { MAX_EXPANDED_RESULT } from '../../src/cli/chat/expanded-call.js';
import { createMarkdownStream } from '../../src/cli/chat/markdown-stream.js';
import { savedToolCalls } from '../../src/cli/chat/saved-tool-calls.js';
import { createToolCallLog, type ToolCallLog } from '../../src/cli/chat/tool-call-log.js';
import { createTurnRenderer } from '../../src/cli/chat/turn-renderer.js';
import { showUnfinishedCalls } from '../../src/cli/chat/unfinished-calls.js';
import type { AgentEvent } from '../../src/loop/events.js';
import type { Message, ToolResultPart } from '../../src/providers/types.js';

function fakeTerminal(isTTY: boolean) {
  let written = '';
  const stream = {
    isTTY,
    columns: 200,
    destroyed: false,
    write(text: string) {
      written += text;
      return true;
    },
  } as unknown as NodeJS.WriteStream;
  return { stream, text: () => written };
}

/** What `/expand` asks of the conversation: one no compaction has summarised. */
const conversation = { compactedToolCalls: 0 };

function render(
  events: AgentEvent[],
  options: { isTTY: boolean; env?: NodeJS.ProcessEnv; secrets?: string[]; calls?: ToolCallLog },
) {
  const terminal = fakeTerminal(options.isTTY);
  const output = createChatOutput({ stream: terminal.stream, env: options.env ?? {} });
  const renderer = createTurnRenderer(output, options.secrets ?? [], new Set(), undefined, options.calls);
  for (const event of events) renderer.event(event);
  renderer.finish();
  return terminal.text();
}

const deltas = (...pieces: string[]): AgentEvent[] => pieces.map((text) => ({ type: 'text-delta', text }));
// biome-ignore lint/suspicious/noControlCharactersInRegex: looking for escape codes is the point.
const ESCAPE = /\u001b/;
/** The styles the chat adds itself. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: looking for escape codes is the point.
const STYLE = /\u001b\[[0-9;]*m/g;

describe('the chat renders a turn', () => {
  it('renders Markdown split across pieces: heading, bold, code, bullets and fences lose their marks', () => {
    const text = render(
      deltas(
        '## Res',
        'ult\nThe sum is **1',
        '2** and `add_',
        'numbers` did it.\n- one\n',
        '```js\nlet x = 1;\n``',
        '`\nend',
      ),
      {
        isTTY: true,
      },
    );
    const plain = text.replace(STYLE, '');
    expect(plain).toBe('Result\nThe sum is 12 and add_numbers did it.\n• one\n───\nlet x = 1;\n───\nend\n');
    expect(text).toContain('\u001b[1;4mResult');
    expect(text).toContain('\u001b[1m12');
    expect(text).toContain('\u001b[36madd_numbers');
  });

  it('passes the text as written with NO_COLOR, and without a terminal', () => {
    const events = deltas('## Title\n**bold** and `code`\n');
    for (const options of [{ isTTY: true, env: { NO_COLOR: '1' } }, { isTTY: false }]) {
      const text = render(events, options);
      expect(text).toBe('## Title\n**bold** and `code`\n');
    }
  });

  it('never lets control codes from the model through, even split across pieces', () => {
    const text = render(deltas('safe \u001b]0;pwned\u0007title', ' \u001b', '[2J cleared \u009b31m red\r\n'), {
      isTTY: true,
    });
    expect(text.replace(STYLE, '')).not.toMatch(ESCAPE);
    expect(text).not.toContain('\u009b');
    expect(text).not.toContain('\r');
    expect(text).not.toContain('\u0007');
  });

  it('shows each tool call as one line with secrets redacted and the outcome', () => {
    const text = render(
      [
        { type: 'tool-call-start', turn: 1, index: 0, callId: 'c1', name: 'api__fetch', argumentsText: '{}' },
        {
          type: 'tool-call-request',
          callId: 'c1',
          server: 'api',
          tool: 'fetch',
          arguments: { url: 'https://x.test/?key=sk-live-123', password: 'hunter2' },
        },
        {
          type: 'tool-call-end',
          turn: 1,
          index: 0,
          callId: 'c1',
          name: 'api__fetch',
          server: 'api',
          outcome: 'error',
          durationMs: 42,
          result: {
            callId: 'c1',
            toolName: 'api__fetch',
            isError: true,
            content: [{ type: 'text', text: 'denied for sk-live-123\u001b[2J' }],
          },
        },
      ],
      { isTTY: false, secrets: ['sk-live-123'] },
    );
    expect(text).toBe(
      '[1] ⚙ api fetch {"url":"https://x.test/?key=[redacted]","password":"[redacted]"} · 42 ms · error → denied for [redacted]\n',
    );
  });

  it('shows a call that never reached its server by its namespaced name alone', () => {
    const text = render(
      [
        {
          type: 'tool-call-start',
          turn: 1,
          index: 0,
          callId: 'c1',
          name: 'calculator__divide',
          argumentsText: '{"a":1,"b":0}',
        },
        {
          type: 'tool-call-end',
          turn: 1,
          index: 0,
          callId: 'c1',
          name: 'calculator__divide',
          server: 'calculator',
          outcome: 'denied',
          durationMs: 0,
          result: {
            callId: 'c1',
            toolName: 'calculator__divide',
            isError: true,
            content: [{ type: 'text', text: 'User denied this call.' }],
          },
        },
      ],
      { isTTY: false },
    );
    expect(text).toBe('[1] ⚙ calculator__divide {"a":1,"b":0} · 0 ms · denied → User denied this call.\n');
  });

  it('numbers the calls of a conversation, and /expand shows one in full: redacted, stripped and bounded', async () => {
    const secrets = ['sk-live-123'];
    const calls = createToolCallLog();
    const call = (id: string, args: Record<string, unknown>, content: ToolResultPart[]): AgentEvent[] => [
      { type: 'tool-call-request', callId: id, server: 'api', tool: 'fetch', arguments: args },
      {
        type: 'tool-call-end',
        turn: 1,
        index: 0,
        callId: id,
        name: 'api__fetch',
        server: 'api',
        outcome: 'ok',
        durationMs: 7,
        result: { callId: id, toolName: 'api__fetch', isError: false, content },
      },
    ];
    const first = render(
      call('c1', { url: 'https://x.test/?key=sk-live-123', nested: { api_key: 'abc', n: 1 } }, [
        { type: 'text', text: 'line one for sk-live-123\n\u001b]0;pwned\u0007line \u009b31mtwo\r\n\u001b[2Jend' },
        { type: 'image', mimeType: 'image/png', data: 'AAAA' },
      ]),
      { isTTY: false, secrets, calls },
    );
    expect(first).toMatch(/^\[1\] ⚙ api fetch /);
    const second = render(call('c2', { q: 'big' }, [{ type: 'text', text: '.'.repeat(50_000) }]), {
      isTTY: false,
      secrets,
      calls,
    });
    expect(second).toMatch(/^\[2\] ⚙ api fetch \{"q":"big"\}/);

    const terminal = fakeTerminal(false);
    const output = createChatOutput({ stream: terminal.stream, env: {} });
    const context = { host: { config: { secrets } }, conversation, calls, output } as unknown as ChatContext;
    await expandCommand.run(context, '1');
    expect(terminal.text()).toBe(
      [
        '[1] api fetch · 7 ms · ok',
        'arguments:',
        '{',
        '  "url": "https://x.test/?key=[redacted]",',
        '  "nested": {',
        '    "api_key": "[redacted]",',
        '    "n": 1',
        '  }',
        '}',
        'result, as the model received it:',
        'line one for [redacted]',
        'line two',
        'end',
        '[image image/png, 3 bytes]',
        '',
      ].join('\n'),
    );

    // No number: the last call. Its 50,000-character result is cut at the bound, saying how much was left out.
    const before = terminal.text().length;
    await expandCommand.run(context, '');
    const expanded = terminal.text().slice(before);
    expect(expanded).toMatch(/^\[2\] api fetch/);
    expect(expanded.match(/\./g)).toHaveLength(MAX_EXPANDED_RESULT);
    expect(expanded).toContain(`… (${50_000 - MAX_EXPANDED_RESULT} more characters not shown)`);

    await expect(expandCommand.run(context, '9')).rejects.toThrow('no tool call [9]: the calls kept are [1] to [2]');
    await expect(expandCommand.run(context, 'last')).rejects.toThrow('/expand takes a call number');
    expect(await expandCommand.complete?.(context, '')).toEqual(['2', '1']);
    calls.clear();
    await expect(expandCommand.run(context, '')).rejects.toThrow('no tool call to expand yet');
  });

  it('after a resume, numbers new calls after the saved ones, and /expand shows a saved call or says it is not kept', async () => {
    const history: Message[] = [
      { role: 'user', content: [{ type: 'text', text: 'add twice' }] },
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', id: 's1', name: 'calculator__add', argumentsText: '{"a":1,"b":2,"key":"sk-live-123"}' },
          { type: 'tool-call', id: 's2', name: 'calculator__add', argumentsText: 'not json' },
        ],
      },
      {
        role: 'tool',
        results: [
          { callId: 's1', toolName: 'calculator__add', isError: false, content: [{ type: 'text', text: '3' }] },
          { callId: 's2', toolName: 'calculator__add', isError: true, content: [{ type: 'text', text: 'bad' }] },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] },
    ];
    const secrets = ['sk-live-123'];
    const newCall: AgentEvent[] = [
      {
        type: 'tool-call-end',
        turn: 1,
        index: 0,
        callId: 'n1',
        name: 'calculator__add',
        outcome: 'ok',
        durationMs: 4,
        result: { callId: 'n1', toolName: 'calculator__add', isError: false, content: [{ type: 'text', text: '9' }] },
      },
    ];
    const calls = createToolCallLog();
    calls.restore(savedToolCalls(history));
    expect(render(newCall, { isTTY: false, calls })).toMatch(/^\[3\] ⚙ calculator__add/);

    const terminal = fakeTerminal(false);
    const output = createChatOutput({ stream: terminal.stream, env: {} });
    const context = { host: { config: { secrets } }, conversation, calls, output } as unknown as ChatContext;
    await expandCommand.run(context, '1');
    await expandCommand.run(context, '2');
    expect(terminal.text()).toBe(
      [
        '[1] calculator__add · from before the resume (as saved)',
        'arguments:',
        '{',
        '  "a": 1,',
        '  "b": 2,',
        '  "key": "[redacted]"',
        '}',
        'result, as the model received it:',
        '3',
        '[2] calculator__add · from before the resume (as saved) (marked as an error)',
        'arguments:',
        'not json',
        'result, as the model received it:',
        'bad',
        '',
      ].join('\n'),
    );

    // Kept only the newest: an earlier saved call is said to be from before the resume, not unknown.
    const short = createToolCallLog(1);
    short.restore(savedToolCalls(history));
    render(newCall, { isTTY: false, calls: short });
    const shortContext = { ...context, calls: short } as unknown as ChatContext;
    await expect(expandCommand.run(shortContext, '1')).rejects.toThrow(
      'tool call [1] is from before the resume and is not kept: the calls kept are [3] to [3]',
    );
    await expect(expandCommand.run(shortContext, '4')).rejects.toThrow('no tool call [4]');
  });

  it("numbers a turn's calls by their place in the model's answer; one that never ended is shown from the transcript", async () => {
    const divide = {
      type: 'tool-call',
      id: 'd1',
      name: 'calculator__divide',
      argumentsText: '{"a":12,"b":4}',
    } as const;
    const add = { type: 'tool-call', id: 'a1', name: 'calculator__add', argumentsText: '{"a":1,"b":2}' } as const;
    const answer: Message = { role: 'assistant', content: [divide, add] };
    const calls = createToolCallLog();
    // The turn stops while the first call is asked about: only the second ends, and keeps its number.
    const shown = render(
      [
        { type: 'model-response', turn: 1, message: answer, stopReason: 'tool-calls' },
        {
          type: 'tool-call-end',
          turn: 1,
          index: 0,
          callId: 'a1',
          name: 'calculator__add',
          outcome: 'ok',
          durationMs: 3,
          result: { callId: 'a1', toolName: 'calculator__add', isError: false, content: [{ type: 'text', text: '3' }] },
        },
      ],
      { isTTY: false, calls },
    );
    expect(shown).toMatch(/^\[2\] ⚙ calculator__add/m);
    expect(calls.unfinished()).toEqual(['d1']);

    const history: Message[] = [
      { role: 'user', content: [{ type: 'text', text: 'divide, and add' }] },
      answer,
      {
        role: 'tool',
        results: [
          {
            callId: 'd1',
            toolName: 'calculator__divide',
            isError: true,
            content: [{ type: 'text', text: 'The turn was cancelled before this call finished.' }],
          },
          { callId: 'a1', toolName: 'calculator__add', isError: false, content: [{ type: 'text', text: '3' }] },
        ],
      },
    ];
    const terminal = fakeTerminal(false);
    const output = createChatOutput({ stream: terminal.stream, env: {} });
    showUnfinishedCalls(calls, history, output);
    expect(terminal.text()).toBe('[1] ⚙ calculator__divide · not finished\n');
    expect(calls.unfinished()).toEqual([]);
    expect(calls.numbers()).toEqual([1, 2]);

    const context = { host: { config: { secrets: [] } }, conversation, calls, output } as unknown as ChatContext;
    await expandCommand.run(context, '1');
    expect(terminal.text()).toContain(
      '[1] calculator__divide · not finished (as saved) (marked as an error)\narguments:\n{\n  "a": 12,\n  "b": 4\n}\nresult, as the model received it:\nThe turn was cancelled before this call finished.\n',
    );
  });

  it('holds back only what it cannot tell yet', () => {
    const markdown = createMarkdownStream(
      createChatOutput({ stream: fakeTerminal(true).stream, env: {} }).styles,
      true,
    );
    expect(markdown.push('Hello wor')).toBe('Hello wor');
    expect(markdown.push('ld *')).toBe('ld ');
    expect(markdown.push(' star')).toBe('* star');
  });
});
