/**
 * `run` and `tools call` print what a model or a server says as prose: direction controls removed, and characters no
 * terminal shows — a zero-width space, a word joiner, tag characters spelling hidden text — written as escapes, so
 * nothing in the text is out of sight; the zero-width joiner inside an emoji stays, and the emoji with it. The trace
 * shows the call the model asked for with every hidden character as its escape.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../helpers/in-process-cli.js';
import { lineBreakNamesConfig } from '../helpers/line-break-names.js';
import { fixtureServer, writeConfig } from '../helpers/project.js';

const CODER = '👩\u200d💻';

describe('hidden characters in what run and tools call print', () => {
  it('shows zero-width and tag characters as escapes, removes direction controls, and keeps emoji whole', async () => {
    const config = await writeConfig({
      mcpServers: { counter: { command: process.execPath, args: [fixtureServer('counter.mjs')], trust: 'trusted' } },
      permissions: { allow: ['counter__echo'] },
    });
    const script = join(dirname(config), 'script.json');
    writeFileSync(
      script,
      JSON.stringify({
        scenarios: [
          {
            match: 'Echo',
            turns: [
              { toolCalls: [{ name: 'counter__echo', arguments: { text: 'x\u200by\u202ez' } }] },
              {
                text: `Saved rm\u200b -rf ${CODER} \u2060pass\ufeffwd \u202eexe.txt\u202c \u{e0069}\u{e0067}\u{e006e}`,
              },
            ],
          },
        ],
      }),
    );
    const run = await runCliInProcess(
      ['run', 'Echo it', '--trace', '--config', config, '--model', `scripted:${script}`],
      {
        timeoutMs: 60_000,
      },
    );
    expect(run.code, run.stderr).toBe(0);
    // The trace shows what the model asked for exactly: every hidden character as its escape.
    expect(run.stderr).toMatch(/call \S+: counter__echo\(\{"text":"x\\u200by\\u202ez"\}\)/);
    expect(run.stdout).toBe(
      `Saved rm\\u200b -rf ${CODER} \\u2060pass\\ufeffwd exe.txt \\u{e0069}\\u{e0067}\\u{e006e}\n`,
    );

    const called = await runCliInProcess(
      ['tools', 'call', 'counter__echo', '--config', config, '--args', JSON.stringify({ text: `a\u200bb ${CODER}` })],
      { timeoutMs: 60_000 },
    );
    expect(called.code, called.stderr).toBe(0);
    expect(called.stdout).toBe(`a\\u200bb ${CODER}\n`);
  }, 120_000);
});

describe("the trace's discovery list", () => {
  it("shows a server's own name for a tool on one line, a line break in it as its escape", async () => {
    const config = await lineBreakNamesConfig();
    const script = join(dirname(config), 'script.json');
    writeFileSync(script, JSON.stringify({ scenarios: [{ turns: [{ text: 'nothing to do' }] }] }));
    const run = await runCliInProcess(['run', 'Look', '--trace', '--config', config, '--model', `scripted:${script}`], {
      timeoutMs: 60_000,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(' → odd / lookup\\x0a  Why it asks:  this tool only reads; the user allowed it\n');
    expect(run.stderr.split('\n').filter((line) => line.trim().startsWith('Why it asks:'))).toEqual([]);
  }, 120_000);
});
