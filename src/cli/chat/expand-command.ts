/** `/expand [N]`: tool call N of this conversation (default: the last one) in full. */
import { formatExpandedCall } from './expanded-call.js';
import { ChatCommandError, type SlashCommand } from './slash-command.js';

export const expandCommand: SlashCommand = {
  name: 'expand',
  usage: '[N]',
  summary: 'tool call N in full: arguments and the result the model received (no N: the last call)',
  async run({ host, conversation, calls, output }, argument) {
    const given = argument.trim().replace(/^\[(.*)\]$/, '$1');
    if (given !== '' && !/^\d+$/.test(given)) {
      throw new ChatCommandError(`/expand takes a call number, as shown in [N] before the call: not "${given}"`);
    }
    const number = given === '' ? undefined : Number(given);
    const call = calls.get(number);
    if (call === undefined) {
      const kept = calls.numbers();
      const since = kept.length === 0 ? '' : `: the calls kept are [${kept[0]}] to [${kept.at(-1)}]`;
      if (number !== undefined && number >= 1) {
        // The first calls of the conversation are the ones its compactions summarised, whether before a resume (the
        // saved transcript holds only the summary) or during this chat (and since left out of the newest kept).
        if (number <= calls.compactedBeforeResume()) {
          throw new ChatCommandError(
            `tool call [${given}] was summarised by a compaction before the resume, so it is not kept${since}`,
          );
        }
        if (number <= conversation.compactedToolCalls) {
          throw new ChatCommandError(
            `tool call [${given}] was summarised by a compaction and is no longer kept${since}`,
          );
        }
        if (number <= calls.restoredCount()) {
          throw new ChatCommandError(`tool call [${given}] is from before the resume and is not kept${since}`);
        }
      }
      if (kept.length === 0) throw new ChatCommandError('no tool call to expand yet in this conversation');
      throw new ChatCommandError(`no tool call [${given}]${since}`);
    }
    output.endLine();
    for (const line of formatExpandedCall(
      call,
      host.config.secrets,
      output.styles,
      call.number <= calls.restoredCount(),
      call.number <= conversation.compactedToolCalls,
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
