import { describe, expect, it } from 'vitest';
import { closeNames, MAX_COMPARED_NAME_LENGTH } from '../../src/text/close-names.js';

const tools = [
  'calculator__add_numbers',
  'calculator__divide',
  'calculator__multiply',
  'calculator__subtract',
  'inventory__get_stock_level',
  'inventory__list_skus',
  'inventory__reserve',
];

describe('closeNames', () => {
  it('suggests a name a typo, a swapped pair or a part of it points to, best first', () => {
    expect(closeNames('calculator__add_numbrs', tools, 3)).toEqual(['calculator__add_numbers']);
    expect(closeNames('add', tools, 3)).toEqual(['calculator__add_numbers']);
    expect(closeNames('inventory__reserv', tools, 3)).toEqual(['inventory__reserve']);
    expect(closeNames('shwo', ['list', 'show', 'export', 'delete'], 2)).toEqual(['show']);
    expect(closeNames('antropic', ['anthropic', 'openai', 'gemini'], 1)).toEqual(['anthropic']);
  });

  it('suggests nothing for a word that is close to none of them', () => {
    expect(closeNames('nope', tools, 3)).toEqual([]);
    expect(closeNames('weather', tools, 3)).toEqual([]);
    // `ui` has no letters in common with `sesions` but the `i`.
    expect(closeNames('sesions', ['sessions', 'ui'], 2)).toEqual(['sessions']);
  });

  it('asks more of a word of one or two letters: the start of a name, or one edit of a name as short', () => {
    const commands = ['run', 'chat', 'tools', 'ui', 'sessions', 'remove', 'resources'];
    expect(closeNames('x', commands, 2)).toEqual([]);
    expect(closeNames('ls', commands, 2)).toEqual([]);
    expect(closeNames('u', commands, 2)).toEqual(['ui']);
    expect(closeNames('ru', commands, 2)).toEqual(['run']);
    expect(closeNames('uo', commands, 2)).toEqual(['ui']);
    expect(closeNames('re', commands, 3)).toEqual(['remove', 'resources']);
    // A name of two letters is no closer for being inside a longer word.
    expect(closeNames('guide', commands, 2)).toEqual([]);
    expect(closeNames('uis', commands, 2)).toEqual(['ui']);
  });

  it('prefers the same name in another case, then the fewest edits, over a longer name holding the word', () => {
    const keys = ['timeoutMs', 'maxTotalTimeoutMs', 'maxTurns', 'maxTurnResultTokens'];
    expect(closeNames('timeoutMS', keys, 1)).toEqual(['timeoutMs']);
    expect(closeNames('maxTurn', keys, 1)).toEqual(['maxTurns']);
  });

  it('compares no name longer than a name can be misspelt, however much of a known name it holds', () => {
    // Over the bound, a gateway client's or a model's name would cost its length times each known name's to compare.
    const padding = 'x'.repeat(MAX_COMPARED_NAME_LENGTH);
    expect(closeNames(`${padding}calculator__add_numbers`, tools, 3)).toEqual([]);
    expect(closeNames(`add${padding}`, tools, 3)).toEqual([]);
    expect(closeNames('add', [...tools, `calculator__add${padding}`], 3)).toEqual(['calculator__add_numbers']);
    // At the bound it is compared as ever.
    const atBound = `${'x'.repeat(MAX_COMPARED_NAME_LENGTH - 'calculator__add_numbers'.length)}calculator__add_numbers`;
    expect(closeNames(atBound, tools, 3)).toEqual(['calculator__add_numbers']);
  });

  it('keeps to the limit', () => {
    expect(closeNames('fs__read_fil', ['fs__read_file', 'fs__read_files', 'fs__read_filer'], 2)).toHaveLength(2);
  });
});
