/**
 * The calls of a turn that stopped before they ended (cancelled while one was asked about): they never had a line,
 * but they have their numbers, and the transcript answers them. Each is logged as the transcript has it, so
 * `/expand N` shows it, and gets a line saying it did not finish, so the numbers shown have no gap.
 */
import type { Message } from '../../providers/types.js';
import { showInvisibleCharacters } from '../../text/invisible-characters.js';
import type { ChatOutput } from './chat-output.js';
import { savedToolCallsById } from './saved-tool-calls.js';
import type { ToolCallLog } from './tool-call-log.js';

export function showUnfinishedCalls(calls: ToolCallLog, history: readonly Message[], output: ChatOutput): void {
  const unfinished = calls.unfinished();
  if (unfinished.length === 0) return;
  const saved = savedToolCallsById(history, unfinished);
  for (const callId of unfinished) {
    const call = saved.get(callId);
    if (call === undefined) continue;
    const number = calls.add(call, callId);
    const { dim, bold } = output.styles;
    // The name as the model wrote it: every invisible character as its escape, on one line.
    const name = showInvisibleCharacters(call.view.tool).replace(/\s+/g, ' ');
    output.endLine();
    output.writeStyled(`${dim(`[${number}]`)} ${dim('⚙')} ${bold(name)} ${dim('· not finished')}\n`);
  }
}
