import { describe, expect, it } from 'vitest';
import { answerFromScript, defaultFallbackText } from '../../src/testing/answer-from-script.js';
import type { ConversationView, Script } from '../../src/testing/script-types.js';

function view(overrides: Partial<ConversationView> = {}): ConversationView {
  return {
    model: 'test-model',
    stream: false,
    toolNames: ['calculator__add', 'files__read'],
    firstUserText: 'add 2 and 3',
    assistantTurns: 0,
    lastToolResults: [],
    ...overrides,
  };
}

const script: Script = {
  fallbackText: 'I have nothing scripted for that.',
  scenarios: [
    {
      match: 'add (\\d+) and (\\d+)',
      turns: [
        {
          expect: { toolsInclude: ['calculator__add'] },
          text: 'Adding {{match.1}} and {{match.2}}.',
          toolCalls: [
            { name: 'calculator__add', arguments: { a: '{{match.1}}', b: '{{match.2}}', note: 'sum of {{match.1}}' } },
          ],
        },
        {
          expect: { lastToolResultIncludes: '5', lastToolResultIsError: false },
          text: 'The sum is {{lastToolResult}}.',
        },
      ],
    },
    {
      match: 'read (\\S+)',
      turns: [
        {
          toolCalls: [
            { name: 'files__read', arguments: { path: '{{match.1}}' }, id: 'fixed-id' },
            { name: 'files__read' },
          ],
        },
        { expect: { lastToolResultIsError: true }, text: 'That failed: {{lastToolResult}}' },
      ],
    },
    { match: 'busy', turns: [{ error: { status: 429, message: 'slow down' } }] },
    { turns: [{ text: 'catch-all answer' }] },
  ],
};

describe('answerFromScript', () => {
  it('picks the first matching scenario and fills match placeholders, numbers as numbers', () => {
    const answer = answerFromScript(script, view());
    expect(answer).toEqual({
      kind: 'turn',
      text: 'Adding 2 and 3.',
      toolCalls: [{ id: 'call_0_0', name: 'calculator__add', arguments: { a: 2, b: 3, note: 'sum of 2' } }],
    });
  });

  it('takes the turn numbered by the assistant turns already in the conversation', () => {
    const answer = answerFromScript(
      script,
      view({ assistantTurns: 1, lastToolResults: [{ text: '5', isError: false }] }),
    );
    expect(answer).toEqual({ kind: 'turn', text: 'The sum is 5.', toolCalls: [] });
  });

  it('joins all results of the last tool turn for {{lastToolResult}}', () => {
    const answer = answerFromScript(
      script,
      view({
        firstUserText: 'read notes.txt',
        assistantTurns: 1,
        lastToolResults: [
          { text: 'no such file', isError: true },
          { text: 'second result', isError: false },
        ],
      }),
    );
    expect(answer).toEqual({ kind: 'turn', text: 'That failed: no such file\nsecond result', toolCalls: [] });
  });

  it('keeps a fixed call id and makes up stable ones for the others', () => {
    const request = view({ firstUserText: 'read notes.txt' });
    const first = answerFromScript(script, request);
    const again = answerFromScript(script, request);
    expect(first).toEqual(again);
    expect(first.kind === 'turn' && first.toolCalls.map((call) => call.id)).toEqual(['fixed-id', 'call_0_1']);
    expect(first.kind === 'turn' && first.toolCalls[0]?.arguments).toEqual({ path: 'notes.txt' });
    expect(first.kind === 'turn' && first.toolCalls[1]?.arguments).toEqual({});
  });

  it('keeps a non-numeric single placeholder as a string', () => {
    const answer = answerFromScript(
      { scenarios: [{ match: 'x=(\\w+)', turns: [{ toolCalls: [{ name: 't', arguments: { v: '{{match.1}}' } }] }] }] },
      view({ firstUserText: 'x=12abc' }),
    );
    expect(answer.kind === 'turn' && answer.toolCalls[0]?.arguments).toEqual({ v: '12abc' });
  });

  it('answers an unmet tool expectation with a 400 naming what was expected and found', () => {
    const answer = answerFromScript(script, view({ toolNames: ['files__read'] }));
    expect(answer.kind).toBe('error');
    if (answer.kind !== 'error') return;
    expect(answer.status).toBe(400);
    expect(answer.message).toContain('calculator__add');
    expect(answer.message).toContain('tools offered: files__read');
    expect(answer.message).toContain('turn 0');
  });

  it('answers an unmet tool-result expectation with what the result really was', () => {
    const answer = answerFromScript(
      script,
      view({ assistantTurns: 1, lastToolResults: [{ text: 'division by zero', isError: false }] }),
    );
    expect(answer).toMatchObject({ kind: 'error', status: 400 });
    expect(answer.kind === 'error' && answer.message).toContain('"5"');
    expect(answer.kind === 'error' && answer.message).toContain('"division by zero"');
  });

  it('fails an error-flag expectation, and an expectation on results when there are none', () => {
    const notAnError = answerFromScript(
      script,
      view({ firstUserText: 'read a', assistantTurns: 1, lastToolResults: [{ text: 'ok', isError: false }] }),
    );
    expect(notAnError.kind === 'error' && notAnError.message).toContain('to be flagged as an error');
    const none = answerFromScript(script, view({ assistantTurns: 1 }));
    expect(none.kind === 'error' && none.message).toContain('found none');
  });

  it('pauses a turn only where the wire can, and refuses it elsewhere with a 400', () => {
    const pausing: Script = { scenarios: [{ turns: [{ text: 'Searching', pauseTurn: true }] }] };
    expect(answerFromScript(pausing, view({ canPauseTurn: true }))).toEqual({
      kind: 'turn',
      text: 'Searching',
      toolCalls: [],
      pauseTurn: true,
    });
    expect(answerFromScript(pausing, view())).toEqual({
      kind: 'error',
      status: 400,
      message:
        'scenario 0, turn 0 pauses the turn ("pauseTurn"), which only the Anthropic wire and the scripted provider can.',
    });
  });

  it('answers a scripted provider error', () => {
    expect(answerFromScript(script, view({ firstUserText: 'busy day' }))).toEqual({
      kind: 'error',
      status: 429,
      message: 'slow down',
    });
  });

  it('falls back to a scenario without match, then to fallbackText past the last turn', () => {
    expect(answerFromScript(script, view({ firstUserText: 'hello' }))).toEqual({
      kind: 'turn',
      text: 'catch-all answer',
      toolCalls: [],
    });
    expect(answerFromScript(script, view({ firstUserText: 'hello', assistantTurns: 1 }))).toEqual({
      kind: 'turn',
      text: 'I have nothing scripted for that.',
      toolCalls: [],
    });
  });

  it('answers a later question with the scenario it matches once the one before has played its turns', () => {
    const questions = (...texts: Array<[string, number]>) =>
      texts.map(([text, assistantTurnsBefore]) => ({ text, assistantTurnsBefore }));
    // add 2 and 3 took two turns; read x, asked after them, starts its own scenario at its first turn.
    const next = answerFromScript(
      script,
      view({ assistantTurns: 2, userQuestions: questions(['add 2 and 3', 0], ['read notes.txt', 2]) }),
    );
    // Its calls without an id are numbered by the conversation's turn, so no id of an earlier question comes back.
    expect(next).toMatchObject({
      kind: 'turn',
      toolCalls: [
        { id: 'fixed-id', arguments: { path: 'notes.txt' } },
        { id: 'call_2_1', name: 'files__read' },
      ],
    });
    // A message while the scenario still has turns goes on with it: a script may play a whole conversation.
    expect(
      answerFromScript(
        script,
        view({
          assistantTurns: 1,
          lastToolResults: [{ text: '5', isError: false }],
          userQuestions: questions(['add 2 and 3', 0], ['and then?', 1]),
        }),
      ),
    ).toMatchObject({ kind: 'turn', text: 'The sum is 5.' });
    // After a question no scenario matched but the catch-all, the next is matched anew.
    expect(
      answerFromScript(script, view({ assistantTurns: 1, userQuestions: questions(['hello', 0], ['add 4 and 1', 1]) })),
    ).toMatchObject({ kind: 'turn', text: 'Adding 4 and 1.' });
  });

  it('explains the scripted model when no scenario matches and there is no fallbackText', () => {
    const answer = answerFromScript({ scenarios: [{ match: '^never$', turns: [] }] }, view());
    expect(answer).toEqual({ kind: 'turn', text: defaultFallbackText, toolCalls: [] });
    expect(defaultFallbackText).toContain('scripted model');
  });
});
