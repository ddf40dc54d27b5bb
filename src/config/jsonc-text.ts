/**
 * JSON with comments and trailing commas (VS Code's `mcp.json` and `settings.json`, hand-edited configs) turned into
 * strict JSON of the same length: comments and trailing commas become spaces, line breaks stay. Positions in the
 * strict text are positions in the file, so syntax errors still name the line and column the user sees.
 */

import { createScanner, ScanError, SyntaxKind } from 'jsonc-parser';

interface Token {
  kind: SyntaxKind;
  offset: number;
  length: number;
  error: ScanError;
}

/** `text` with comments and trailing commas blanked. Anything else, valid or not, is left for the strict parser. */
export function blankJsoncExtras(text: string): string {
  const tokens = scanTokens(text);
  const blanks: Array<[number, number]> = [];
  let previous: Token | undefined;
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index]!;
    if (isTrivia(token.kind)) {
      // An unterminated block comment stays, so the strict parser reports it where it starts.
      if (isComment(token.kind) && token.error === ScanError.None) blanks.push([token.offset, token.length]);
      continue;
    }
    // Only a comma after a value and before a closing bracket is trailing: `{,}` stays an error.
    if (token.kind === SyntaxKind.CommaToken && previous !== undefined && VALUE_ENDS.has(previous.kind)) {
      const next = nextNonTrivia(tokens, index + 1);
      if (next?.kind === SyntaxKind.CloseBraceToken || next?.kind === SyntaxKind.CloseBracketToken) {
        blanks.push([token.offset, token.length]);
      }
    }
    previous = token;
  }
  if (blanks.length === 0) return text;
  let result = '';
  let position = 0;
  for (const [offset, length] of blanks) {
    result += text.slice(position, offset) + text.slice(offset, offset + length).replace(/[^\r\n]/g, ' ');
    position = offset + length;
  }
  return result + text.slice(position);
}

function scanTokens(text: string): Token[] {
  const scanner = createScanner(text, false);
  const tokens: Token[] = [];
  for (;;) {
    const kind = scanner.scan();
    if (kind === SyntaxKind.EOF) return tokens;
    tokens.push({
      kind,
      offset: scanner.getTokenOffset(),
      length: scanner.getTokenLength(),
      error: scanner.getTokenError(),
    });
  }
}

const VALUE_ENDS: ReadonlySet<SyntaxKind> = new Set([
  SyntaxKind.StringLiteral,
  SyntaxKind.NumericLiteral,
  SyntaxKind.TrueKeyword,
  SyntaxKind.FalseKeyword,
  SyntaxKind.NullKeyword,
  SyntaxKind.CloseBraceToken,
  SyntaxKind.CloseBracketToken,
]);

function isComment(kind: SyntaxKind): boolean {
  return kind === SyntaxKind.LineCommentTrivia || kind === SyntaxKind.BlockCommentTrivia;
}

function isTrivia(kind: SyntaxKind): boolean {
  return isComment(kind) || kind === SyntaxKind.Trivia || kind === SyntaxKind.LineBreakTrivia;
}

function nextNonTrivia(tokens: Token[], from: number): Token | undefined {
  for (let index = from; index < tokens.length; index++) {
    if (!isTrivia(tokens[index]!.kind)) return tokens[index];
  }
  return undefined;
}
