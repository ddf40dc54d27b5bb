/**
 * Finds where strict JSON text goes wrong and says why. `JSON.parse` on Node 20 reports a position for only some
 * errors ("Unexpected token '}', … is not valid JSON" has none), and people who edit config files by hand reach for
 * comments and trailing commas, so a message naming line, column and the likely cause saves a round of guessing.
 * Only called after `JSON.parse` failed; it validates the grammar without building values.
 */

interface JsonSyntaxProblem {
  /** Offset in UTF-16 code units from the start of the text. */
  offset: number;
  /** 1-based. */
  line: number;
  /** 1-based, counted in UTF-16 code units. */
  column: number;
  /** Follows "expected". */
  expected: string;
  /** What was at `offset`. */
  found: string;
  hint?: string;
}

class SyntaxStop {
  constructor(
    readonly offset: number,
    readonly expected: string,
    readonly hint?: string,
  ) {}
}

const MAX_DEPTH = 2_000;

/** The first syntax error in `text`, or undefined if it is valid JSON. */
export function findJsonSyntaxProblem(text: string): JsonSyntaxProblem | undefined {
  let offset = 0;

  const stop = (expected: string, hint?: string): never => {
    throw new SyntaxStop(offset, expected, hint);
  };

  const skipWhitespace = (): void => {
    while (offset < text.length && ' \t\n\r'.includes(text[offset]!)) offset++;
  };

  const expectLiteral = (word: string): void => {
    for (let index = 0; index < word.length; index++) {
      if (text[offset] !== word[index]) stop(`the literal \`${word}\``);
      offset++;
    }
  };

  const readString = (): void => {
    offset++; // opening quote
    for (;;) {
      if (offset >= text.length) stop('a closing `"` for the string');
      const code = text.charCodeAt(offset);
      if (code === 0x22) {
        offset++;
        return;
      }
      if (code < 0x20) stop('a string without raw line breaks or control characters (write them as escapes: \\n, \\t)');
      if (code === 0x5c) {
        offset++;
        const escaped = text[offset];
        if (escaped === 'u') {
          offset++;
          for (let digit = 0; digit < 4; digit++) {
            if (!/[0-9a-fA-F]/.test(text[offset] ?? '')) stop('four hex digits after `\\u`');
            offset++;
          }
          continue;
        }
        if (escaped === undefined || !'"\\/bfnrt'.includes(escaped)) {
          stop('a valid escape: \\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX', 'Write a backslash as \\\\.');
        }
      }
      offset++;
    }
  };

  const readNumber = (): void => {
    if (text[offset] === '-') offset++;
    if (text[offset] === '0') offset++;
    else if (/[1-9]/.test(text[offset] ?? '')) while (/[0-9]/.test(text[offset] ?? '')) offset++;
    else stop('a digit');
    if (text[offset] === '.') {
      offset++;
      if (!/[0-9]/.test(text[offset] ?? '')) stop('a digit after the decimal point');
      while (/[0-9]/.test(text[offset] ?? '')) offset++;
    }
    if (text[offset] === 'e' || text[offset] === 'E') {
      offset++;
      if (text[offset] === '+' || text[offset] === '-') offset++;
      if (!/[0-9]/.test(text[offset] ?? '')) stop('a digit in the exponent');
      while (/[0-9]/.test(text[offset] ?? '')) offset++;
    }
  };

  const readValue = (depth: number): void => {
    if (depth > MAX_DEPTH) stop(`at most ${MAX_DEPTH} levels of nesting`);
    skipWhitespace();
    const character = text[offset];
    if (character === '{') readObject(depth);
    else if (character === '[') readArray(depth);
    else if (character === '"') readString();
    else if (character === 't') expectLiteral('true');
    else if (character === 'f') expectLiteral('false');
    else if (character === 'n') expectLiteral('null');
    else if (character === '-' || /[0-9]/.test(character ?? '')) readNumber();
    else if (character === "'") stop('a value', 'JSON strings use double quotes.');
    else stop('a value (an object, array, string, number, true, false or null)');
  };

  const readObject = (depth: number): void => {
    offset++;
    skipWhitespace();
    if (text[offset] === '}') {
      offset++;
      return;
    }
    for (;;) {
      skipWhitespace();
      if (text[offset] !== '"') {
        if (text[offset] === "'") stop('a property name', 'JSON property names use double quotes.');
        stop('a property name in double quotes');
      }
      readString();
      skipWhitespace();
      if (text[offset] !== ':') stop('`:` after the property name');
      offset++;
      readValue(depth + 1);
      skipWhitespace();
      if (text[offset] === '}') {
        offset++;
        return;
      }
      if (text[offset] !== ',') stop('`,` or `}` after the property value');
      offset++;
      skipWhitespace();
      if (text[offset] === '}') stop('another property after `,`', 'JSON does not allow a trailing comma.');
    }
  };

  const readArray = (depth: number): void => {
    offset++;
    skipWhitespace();
    if (text[offset] === ']') {
      offset++;
      return;
    }
    for (;;) {
      readValue(depth + 1);
      skipWhitespace();
      if (text[offset] === ']') {
        offset++;
        return;
      }
      if (text[offset] !== ',') stop('`,` or `]` after the array item');
      offset++;
      skipWhitespace();
      if (text[offset] === ']') stop('another item after `,`', 'JSON does not allow a trailing comma.');
    }
  };

  try {
    readValue(0);
    skipWhitespace();
    if (offset < text.length) stop('the end of the file after the JSON value');
    return undefined;
  } catch (error) {
    if (!(error instanceof SyntaxStop)) throw error;
    const position = lineAndColumn(text, error.offset);
    const { found, hint } = describeOffending(text, error.offset);
    const combinedHint = error.hint ?? hint;
    return {
      offset: error.offset,
      ...position,
      expected: error.expected,
      found,
      ...(combinedHint === undefined ? {} : { hint: combinedHint }),
    };
  }
}

/** 1-based line and column of `offset`; `\r\n`, `\n` and a lone `\r` each end a line. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let index = 0; index < offset && index < text.length; index++) {
    const character = text[index];
    if (character === '\n' || (character === '\r' && text[index + 1] !== '\n')) {
      line++;
      lineStart = index + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

function describeOffending(text: string, offset: number): { found: string; hint?: string } {
  if (offset >= text.length) return { found: 'the end of the file' };
  const rest = text.slice(offset, offset + 2);
  if (rest === '//' || rest === '/*') return { found: 'a comment', hint: 'JSON does not allow comments.' };
  const character = text[offset]!;
  if (character === '\n' || character === '\r') return { found: 'a line break' };
  if (text.charCodeAt(offset) < 0x20) return { found: `the control character U+${hexCode(text, offset)}` };
  const word = /^[A-Za-z_$][A-Za-z0-9_$]*/.exec(text.slice(offset, offset + 40))?.[0];
  if (word !== undefined && word.length > 1) return { found: `\`${word}\`` };
  return { found: `\`${String.fromCodePoint(text.codePointAt(offset)!)}\`` };
}

function hexCode(text: string, offset: number): string {
  return text.charCodeAt(offset).toString(16).toUpperCase().padStart(4, '0');
}

/**
 * Where a state file's JSON goes wrong, for a message that goes on after it: `at line 1, column 3: expected …, found
 * …`, or `JSON.parse`'s own words when the grammar holds (a number out of range, say).
 */
export function jsonSyntaxPlace(text: string, parseError: unknown): string {
  const problem = findJsonSyntaxProblem(text);
  if (problem === undefined) return parseError instanceof Error ? parseError.message : String(parseError);
  const hint = problem.hint === undefined ? '' : `; ${problem.hint.replace(/\.$/, '')}`;
  return `at line ${problem.line}, column ${problem.column}: expected ${problem.expected}, found ${problem.found}${hint}`;
}
