/** `/expand [N]`: tool call N of this conversation (default: the last one) in full. */
import { formatExpandedCall } from './expanded-call.js';
import { ChatCommandError, type SlashCommand } from './slash-command.js';

export const expandCommand: SlashCommand = {
  name: 'expand',
  usage: '[N]',
  summary: 'tool call N in full: arguments and the result the model received (no N: the last call)',
  async run({ host, calls, output }, argument) {
    const given = argument.trim().replace(/^\[(.*)\]$/, '$1');
    if (given !== '' && !/^\d+$/.test(given)) {
      throw new ChatCommandError(`/expand takes a call number, as shown in [N] before the call: not "${given}"`);
    }
    const number = given === '' ? undefined : Number(given);
    const call = calls.get(number);
    if (call === undefined) {
      const kept = calls.numbers();
      if (number !== undefined && number >= 1 && number <= calls.restoredCount()) {
        const since = kept.length === 0 ? '' : `: the calls kept are [${kept[0]}] to [${kept.at(-1)}]`;
        throw new ChatCommandError(`tool call [${given}] is from before the resume and is not kept${since}`);
      }
      if (kept.length === 0) throw new ChatCommandError('no tool call to expand yet in this conversation');
      throw new ChatCommandError(`no tool call [${given}]: the calls kept are [${kept[0]}] to [${kept.at(-1)}]`);
    }
    output.endLine();
    for (const line of formatExpandedCall(
      call,
      host.config.secrets,
      output.styles,
      call.number <= calls.restoredCount(),
    ))
      output.writeStyled(`${line}\n`);
  },
  async complete({ calls }, argument) {
    return calls
      .numbers()
      .reverse()
      .map(String)
      .filter((number) => number.startsWith(argument.trim()));
  },
};
