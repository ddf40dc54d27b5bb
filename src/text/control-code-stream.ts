/**
 * Strips terminal control codes from text that arrives in pieces (a model's streamed answer). A piece is cleaned on
 * its own only up to a control sequence it leaves open: a sequence cut between two pieces would otherwise lose its
 * introducer with the first and have its tail (`]0;title`, `[?1049h`) printed as text with the second. What waits is
 * bounded: past {@link MAX_HELD} characters an unended sequence is removed as far as it goes, the rest then printed.
 */
import { CONTROL_SEQUENCE_INTRODUCER, stripControlCodes } from './strip-control-codes.js';

/** The longest control sequence held back while its end is awaited. */
const MAX_HELD = 4_096;
/** A sequence that runs to the end of the text it is matched in (see strip-control-codes.ts for the grammar). */
const OPEN_SEQUENCE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching terminal control sequences is the point.
  /(?:(?:\u001b[\]PX^_]|[\u0090\u0098\u009d\u009e\u009f])(?:(?!\u0007|\u001b\\|\u009c)[\s\S])*|(?:\u001b\[|\u009b)[0-?]*[ -/]*|\u001b[ -/]*)$/u;
const INTRODUCER = new RegExp(CONTROL_SEQUENCE_INTRODUCER.source, 'gu');

export interface ControlCodeStream {
  /** The next piece; returns what can be written now, stripped. */
  push(text: string): string;
  /** Whatever was held back, stripped; the stream starts afresh after. */
  end(): string;
}

export function createControlCodeStream(): ControlCodeStream {
  let held = '';
  return {
    push(text) {
      const buffer = held + text;
      const from = openSequenceStart(buffer);
      if (from === -1 || buffer.length - from > MAX_HELD) {
        held = '';
        return stripControlCodes(buffer);
      }
      held = buffer.slice(from);
      return stripControlCodes(buffer.slice(0, from));
    },
    end() {
      const rest = held;
      held = '';
      return stripControlCodes(rest);
    },
  };
}

/** Where a control sequence still open at the end of `text` begins, or -1. */
function openSequenceStart(text: string): number {
  // Only the last introducer can begin one: any earlier sequence ends before it does.
  INTRODUCER.lastIndex = Math.max(0, text.length - MAX_HELD - 1);
  let last = -1;
  for (let match = INTRODUCER.exec(text); match !== null; match = INTRODUCER.exec(text)) last = match.index;
  if (last === -1) return -1;
  return OPEN_SEQUENCE.test(text.slice(last)) ? last : -1;
}
