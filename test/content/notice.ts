/**
 * Reads the numbers back out of a cut text's notice, so tests can check them against the original text.
 */
export interface ParsedCut {
  head: string;
  tail: string;
  omittedCharacters: number;
  omittedTokens: number;
  /** What the notice says was cut: `this tool result`, or `this prompt`. */
  subject: string;
  resultId?: string;
  offset?: number;
  length?: number;
}

const NOTICE =
  /\n\n\[… ([\d,]+) characters \(about ([\d,]+) tokens\) left out here to keep (this tool result|this prompt) within its output budget(?:\. To read them, call the tool `mcp-host__read_stored_result` with id "([^"]+)", offset (\d+), length (\d+); call it again with a higher offset for more\.\]|; the full text was not kept\.\])\n\n/;

function count(text: string | undefined): number {
  return Number((text ?? '').replaceAll(',', ''));
}

/** Splits a cut text into head, notice numbers and tail; throws when the text holds no notice. */
export function parseCut(text: string): ParsedCut {
  const match = NOTICE.exec(text);
  if (match === null) throw new Error(`no cut notice in: ${text.slice(0, 200)}`);
  const parsed: ParsedCut = {
    head: text.slice(0, match.index),
    tail: text.slice(match.index + match[0].length),
    omittedCharacters: count(match[1]),
    omittedTokens: count(match[2]),
    subject: match[3] as string,
  };
  if (match[4] !== undefined) {
    parsed.resultId = match[4];
    parsed.offset = Number(match[5]);
    parsed.length = Number(match[6]);
  }
  return parsed;
}
