/**
 * Markdown for a terminal, rendered as it streams in: headings, bullets, quotes and code fences are recognised at
 * the start of each line, `**bold**` and `` `code` `` inside it. Text is written as soon as what it is can be told;
 * only a few marker characters wait for the next piece. Without styles (a pipe, NO_COLOR) the text passes as it came.
 * Input must already be stripped of control codes: the only escape codes out are the ones added here.
 */
import type { ChatStyles } from './chat-output.js';

interface MarkdownStream {
  /** Renders the next piece of text; returns what to write. */
  push(text: string): string;
  /** Whatever was held back, with styles closed; the stream starts afresh after. */
  end(): string;
}

const ESC = '\u001b[';
/** Characters that may open a block marker at the start of a line. */
const LINE_MARKER = /^[ \t]*(?:#{1,6}|[-*+]|>|`{1,3}|\d{1,3}[.)]?)?$/;

export function createMarkdownStream(styles: ChatStyles, styled: boolean): MarkdownStream {
  let lineStart = true;
  let head = '';
  let pending = '';
  let inFence = false;
  let fenceInfo = false;
  let bold = false;
  let code = false;
  let lineStyle: 'heading' | 'quote' | undefined;

  const open = (): string =>
    (lineStyle === 'heading' ? `${ESC}1;4m` : lineStyle === 'quote' ? `${ESC}2m` : '') +
    (bold ? `${ESC}1m` : '') +
    (code ? `${ESC}36m` : '');
  const closeAll = (): string => (lineStyle || bold || code ? `${ESC}0m` : '');

  /** Decides what the start of a line is once enough of it is known. */
  const startLine = (text: string): string => {
    const fence = /^[ \t]*```/.exec(text);
    if (fence) {
      inFence = !inFence;
      fenceInfo = inFence;
      return styles.dim('───');
    }
    if (inFence) return `${ESC}36m${text}`;
    const heading = /^#{1,6}[ \t]+/.exec(text);
    if (heading) {
      lineStyle = 'heading';
      return open() + inline(text.slice(heading[0].length));
    }
    const bullet = /^([ \t]*)[-*+][ \t]+/.exec(text);
    if (bullet) return `${bullet[1]}• ${inline(text.slice(bullet[0].length))}`;
    const quote = /^>[ \t]?/.exec(text);
    if (quote) {
      lineStyle = 'quote';
      return `${open()}│ ${inline(text.slice(quote[0].length))}`;
    }
    return inline(text);
  };

  /** Inline markers; a trailing `*` waits to see whether a second one follows. */
  const inline = (text: string): string => {
    let out = '';
    let rest = pending + text;
    pending = '';
    while (rest.length > 0) {
      if (code) {
        const end = rest.indexOf('`');
        if (end === -1) return out + rest;
        out += `${rest.slice(0, end)}${ESC}39m`;
        code = false;
        out += open();
        rest = rest.slice(end + 1);
        continue;
      }
      const marker = rest.search(/\*\*|\*$|`/);
      if (marker === -1) return out + rest;
      out += rest.slice(0, marker);
      rest = rest.slice(marker);
      if (rest === '*') {
        pending = '*';
        return out;
      }
      if (rest.startsWith('**')) {
        bold = !bold;
        out += bold ? `${ESC}1m` : `${ESC}22m${open()}`;
        rest = rest.slice(2);
      } else {
        code = true;
        out += `${ESC}36m`;
        rest = rest.slice(1);
      }
    }
    return out;
  };

  const finishLine = (): string => {
    let out = '';
    if (lineStart && head !== '') out += startLine(head);
    else if (pending !== '') out += pending;
    head = '';
    pending = '';
    if (inFence && !fenceInfo) out += `${ESC}39m`;
    out += closeAll();
    bold = false;
    code = false;
    lineStyle = undefined;
    fenceInfo = false;
    lineStart = true;
    return out;
  };

  const pushLine = (piece: string): string => {
    if (!lineStart) {
      if (fenceInfo) return '';
      return inFence ? piece : inline(piece);
    }
    head += piece;
    if (LINE_MARKER.test(head) && head.length < 8) return '';
    lineStart = false;
    const text = head;
    head = '';
    // The language after an opening fence is not shown (pieces of that line are dropped while fenceInfo is set).
    return startLine(text);
  };

  return {
    push(text) {
      if (!styled) return text;
      let out = '';
      const pieces = text.split('\n');
      pieces.forEach((piece, index) => {
        if (index > 0) out += `${finishLine()}\n`;
        if (piece !== '') out += pushLine(piece);
      });
      return out;
    },
    end() {
      if (!styled) return '';
      const out = finishLine();
      inFence = false;
      return out;
    },
  };
}
