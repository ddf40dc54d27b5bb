import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadScript, parseScript } from '../../src/testing/load-script.js';

describe('loadScript', () => {
  let directory: string;
  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'script-'));
  });
  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  async function write(name: string, content: string): Promise<string> {
    const path = join(directory, name);
    await writeFile(path, content);
    return path;
  }

  it('loads a valid script', async () => {
    const path = await write(
      'ok.json',
      JSON.stringify({
        fallbackText: 'nothing',
        scenarios: [
          {
            match: 'add (\\d+)',
            turns: [{ toolCalls: [{ name: 'calc__add', arguments: { a: 1 } }] }, { text: 'done' }],
          },
        ],
      }),
    );
    const script = await loadScript(path);
    expect(script.scenarios[0]?.turns).toHaveLength(2);
    expect(script.fallbackText).toBe('nothing');
  });

  it('names the file and the key path of a wrong value', async () => {
    const path = await write(
      'bad.json',
      JSON.stringify({ scenarios: [{ turns: [{ text: 'a' }, { toolCalls: [{ name: 5 }] }] }] }),
    );
    const error = await loadScript(path).catch((caught: Error) => caught);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain(path);
    expect((error as Error).message).toContain('scenarios[0].turns[1].toolCalls[0].name');
  });

  it('rejects a misspelt key, an empty turn and an invalid regular expression', async () => {
    const path = await write(
      'typos.json',
      JSON.stringify({ scenarios: [{ match: '(', turns: [{ tool_calls: [] }, {}] }] }),
    );
    const message = await loadScript(path).then(
      () => '',
      (error: Error) => error.message,
    );
    expect(message).toContain('scenarios[0].match: not a valid regular expression');
    expect(message).toContain('tool_calls');
    expect(message).toContain('scenarios[0].turns[1]: a turn needs at least one of');
  });

  it('names the file, and the line and column, when it is not JSON, and the file when it cannot be read', async () => {
    const path = await write('broken.json', '{ "scenarios": [');
    await expect(loadScript(path)).rejects.toThrow(
      `Script file ${path}:1:17: expected a value (an object, array, string, number, true, false or null), found the end of the file.`,
    );
    await expect(loadScript(join(directory, 'missing.json'))).rejects.toThrow('Cannot read script file');
  });

  it('validates a script given as a value', () => {
    expect(() => parseScript({ scenarios: 'no' }, 'inline script')).toThrow(
      /Invalid script inline script:\n {2}scenarios:/,
    );
    expect(parseScript({ scenarios: [] })).toEqual({ scenarios: [] });
  });

  it('rejects tool calls in a paused turn', () => {
    const turn = { pauseTurn: true, text: 'Searching', toolCalls: [{ name: 'a__b' }] };
    expect(() => parseScript({ scenarios: [{ turns: [turn] }] }, 'inline script')).toThrow(
      /scenarios\[0\]\.turns\[0\]\.toolCalls: a paused turn \("pauseTurn"\) has no "toolCalls"/,
    );
    expect(parseScript({ scenarios: [{ turns: [{ pauseTurn: true, text: 'Searching' }] }] })).toBeDefined();
  });
});
