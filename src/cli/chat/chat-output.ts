/**
 * Where the chat writes: the terminal (stdout). Every string is stripped of terminal control codes and text-direction
 * controls on the way in — styles are added afterwards by the chat's own code only — and of direction controls again
 * on the way out. One live line (progress, calls running) can stand at the bottom: it is erased before anything else
 * is written, so it never mixes with the conversation.
 */
import { stripDirectionControls } from '../../text/direction-controls.js';
import { stripControlCodes } from '../../text/strip-control-codes.js';

export interface ChatStyles {
  bold(text: string): string;
  dim(text: string): string;
  code(text: string): string;
  good(text: string): string;
  bad(text: string): string;
  heading(text: string): string;
}

export interface ChatOutput {
  /** A terminal that takes colours and cursor moves (false: a pipe, or NO_COLOR). */
  readonly styled: boolean;
  readonly styles: ChatStyles;
  /** Text from anyone: control codes are removed. */
  write(text: string): void;
  /** Text the chat styled itself from stripped parts (carries the chat's own escape codes). */
  writeStyled(text: string): void;
  /** A whole line (a newline is added; a line left open is closed first). */
  line(text?: string): void;
  /** Starts a new line unless the cursor is already at the start of one. */
  endLine(): void;
  /** The line editor moved the cursor to the start of a line itself (the user pressed Enter). */
  atLineStart(): void;
  /** Shows `text` as the live line (replacing the previous one); undefined removes it. */
  live(text: string | undefined): void;
  /** The terminal's width (80 when unknown). */
  columns(): number;
  /** A writable stream for code that writes to a stream (the questions asked inline). */
  readonly stream: NodeJS.WritableStream;
}

const ESC = '\u001b[';

function makeStyles(styled: boolean): ChatStyles {
  const wrap = (open: string, close: string) => (text: string) =>
    styled ? `${ESC}${open}m${text}${ESC}${close}m` : text;
  return {
    bold: wrap('1', '22'),
    dim: wrap('2', '22'),
    code: wrap('36', '39'),
    good: wrap('32', '39'),
    bad: wrap('31', '39'),
    heading: wrap('1;4', '22;24'),
  };
}

export function createChatOutput(options: { stream: NodeJS.WriteStream; env: NodeJS.ProcessEnv }): ChatOutput {
  const target = options.stream;
  const styled = target.isTTY === true && (options.env.NO_COLOR ?? '') === '' && options.env.TERM !== 'dumb';
  let atLineStart = true;
  let liveShown = false;

  const raw = (text: string): void => {
    if (text === '' || target.destroyed) return;
    if (liveShown) {
      target.write(`\r${ESC}2K`);
      liveShown = false;
    }
    // Styled text carries the chat's own escape codes, so only direction controls can still be removed here.
    target.write(stripDirectionControls(text));
    atLineStart = text.endsWith('\n');
  };

  const output: ChatOutput = {
    styled,
    styles: makeStyles(styled),
    write: (text) => raw(stripControlCodes(text)),
    writeStyled: raw,
    line(text = '') {
      output.endLine();
      raw(`${stripControlCodes(text)}\n`);
    },
    endLine() {
      if (!atLineStart) raw('\n');
    },
    columns: () => target.columns ?? 80,
    atLineStart() {
      atLineStart = true;
    },
    live(text) {
      // Without a terminal a live line cannot be replaced: it is left out.
      if (!styled || target.destroyed) return;
      if (text === undefined) {
        if (liveShown) target.write(`\r${ESC}2K`);
        liveShown = false;
        return;
      }
      if (!atLineStart) return;
      const width = Math.max(20, (target.columns ?? 80) - 1);
      const clean = stripControlCodes(text).replaceAll('\n', ' ');
      const shown = clean.length > width ? `${clean.slice(0, width - 1)}…` : clean;
      target.write(`\r${ESC}2K${ESC}2m${shown}${ESC}22m`);
      liveShown = true;
    },
    stream: {
      write(chunk: string | Uint8Array, ...rest: unknown[]): boolean {
        raw(stripControlCodes(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8')));
        const callback = rest.find((item) => typeof item === 'function') as (() => void) | undefined;
        callback?.();
        return true;
      },
    } as unknown as NodeJS.WritableStream,
  };
  return output;
}
