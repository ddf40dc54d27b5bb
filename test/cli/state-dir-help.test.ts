/**
 * Every command that takes `--state-dir` explains it alike in its help, with the defaults in the order they apply:
 * `MCP_HOST_STATE_DIR` first, which several said nothing of. The helps are read in-process; one real process shows
 * the help a person reads is the same text.
 */
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../helpers/in-process-cli.js';
import { runCli } from '../helpers/project.js';

const COMMANDS = [
  ['run'],
  ['chat'],
  ['tools', 'list'],
  ['tools', 'call'],
  ['servers'],
  ['resources', 'list'],
  ['prompts', 'list'],
  ['audit'],
  ['trust', 'list'],
  ['trust', 'approve'],
  ['skills', 'list'],
  ['serve'],
  ['connect'],
  ['context'],
  ['sessions', 'list'],
  ['sessions', 'show'],
  ['ui'],
  // They edit the config and keep its approval, which lives in the state folder.
  ['add'],
  ['remove'],
];

/** The option's description in a help text, its wrapped lines joined. */
function stateDirHelp(help: string): string {
  const lines = help.split('\n');
  const start = lines.findIndex((line) => line.trimStart().startsWith('--state-dir <dir>'));
  if (start < 0) return '';
  const column = lines[start]!.indexOf('--state-dir <dir>');
  const words = [lines[start]!.slice(column + '--state-dir <dir>'.length).trim()];
  for (const line of lines.slice(start + 1)) {
    // A continuation is indented past the option names; the next option starts at the option column.
    if (!/^\s+/.test(line) || /^\s+-/.test(line) || line.trim() === '') break;
    words.push(line.trim());
  }
  return words.join(' ');
}

describe('--state-dir in the help of every command that takes it', () => {
  it('names the same defaults, in the order they apply', async () => {
    const helps = await Promise.all(COMMANDS.map((command) => runCliInProcess([...command, '--help'])));
    const described = helps.map((help, index) => [COMMANDS[index]!.join(' '), stateDirHelp(help.stdout)]);
    for (const [command, text] of described) {
      expect(text, command).toBe(
        'the state folder: trust store, audit log, sessions, stored results (default: $MCP_HOST_STATE_DIR, else $XDG_STATE_HOME/mcp-host, else ~/.local/state/mcp-host)',
      );
    }
  }, 60_000);

  it('is the same text in the help a real process prints', async () => {
    const args = ['tools', 'list', '--help'];
    const [real, inProcess] = await Promise.all([runCli(args), runCliInProcess(args)]);
    expect(real.code).toBe(0);
    expect(stateDirHelp(real.stdout)).not.toBe('');
    expect(real.stdout).toBe(inProcess.stdout);
  }, 60_000);
});
