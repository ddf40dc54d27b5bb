/**
 * Adds and removes server entries in config text the way a person would by hand: the rest of the file (comments,
 * key order, indentation, other settings) stays as it was. Used by `mcp-host add` and `mcp-host remove`.
 */

import {
  applyEdits,
  createScanner,
  type Edit,
  type FormattingOptions,
  findNodeAtLocation,
  format,
  type Node as JsonNode,
  modify,
  parseTree,
  SyntaxKind,
} from 'jsonc-parser';
import { blankJsoncExtras } from './jsonc-text.js';
import { isPlainObject } from './key-path.js';
import { type ServerSection, serverSectionsOf, serversAt } from './server-sections.js';

/** The parsed file, or undefined when it is not JSON (with comments) at all. */
function parseLoosely(text: string): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (body.trim() === '') return {};
  try {
    return JSON.parse(blankJsoncExtras(body));
  } catch {
    return undefined;
  }
}

/**
 * Where the file keeps its servers: the section the config reads them from (`others` lists any more it has, which the
 * config refuses), else `mcpServers`, and what that section holds: it may be no object (`null`, an array), which the
 * caller refuses, as no entry can go in or come out of it. Undefined when the text is not an object.
 */
export function serverSectionOf(
  text: string,
): { section: ServerSection; servers: unknown; others: ServerSection[] } | undefined {
  const value = parseLoosely(text);
  if (!isPlainObject(value)) return undefined;
  const [section, ...others] = serverSectionsOf(value);
  if (section === undefined) return { section: ['mcpServers'], servers: {}, others };
  return { section, servers: serversAt(value, section), others };
}

/**
 * `text` with `entry` set at `section.name`. Only the new entry is laid out (indented as the file is, one key to a
 * line), and the object it joins when that was written on one line: the entries already there keep their own layout,
 * which the library's formatting of an edit would redo on every line it touches.
 */
export function setServerEntry(text: string, section: ServerSection, name: string, entry: unknown): string {
  const base = text.trim() === '' ? '{}\n' : text;
  const path = [...section, name];
  const [insertion] = modify(base, path, entry, {});
  if (insertion === undefined) return base;
  const placed = pastLineComments(base, insertion);
  const edited = applyEdits(base, placed.edits);
  return applyEdits(edited, layOutInsertion(base, edited, path, placed.layOutFrom));
}

/**
 * The library inserts a new entry right after the entry before it, ahead of the comment on that entry's line, which
 * then followed the new entry: the comma stays there, the entry goes on a line of its own after the comment.
 * `layOutFrom` is where the edited text may be laid out from (not the comment's spacing).
 */
function pastLineComments(base: string, insertion: Edit): { edits: Edit[]; layOutFrom: number } {
  const rest =
    insertion.length === 0 && insertion.content.startsWith(',') ? restOfLine(base, insertion.offset) : undefined;
  if (rest === undefined || !rest.commented) return { edits: [insertion], layOutFrom: insertion.offset };
  // On a line of its own: what the next line holds (a comment on its own line, say) stays there.
  const entry = insertion.content.slice(1);
  if (rest.comma !== undefined) {
    // The entry before was the last, with a trailing comma: that comma now separates the new entry, which ends with
    // one of its own, as the file ends its last entry.
    return {
      edits: [{ offset: rest.end, length: 0, content: `${entry},${rest.lineBreak}` }],
      layOutFrom: rest.lineEnd,
    };
  }
  return {
    edits: [
      { offset: insertion.offset, length: 0, content: ',' },
      { offset: rest.end, length: 0, content: `${entry}${rest.lineBreak}` },
    ],
    // In the edited text, with the comma before it.
    layOutFrom: rest.lineEnd + 1,
  };
}

/** A block comment on one line. */
const BLOCK_COMMENT = String.raw`\/\*(?:(?!\*\/)[^\r\n])*\*\/`;
/**
 * Spaces and block comments, at most one comma, more of them, a line comment, then the line break. Spaces are matched
 * only before the comma or only after it, so a line that does not end this way is refused in one pass.
 */
const REST_OF_LINE = new RegExp(
  String.raw`^((?:[ \t]|${BLOCK_COMMENT})*)(?:(,)(?:[ \t]|${BLOCK_COMMENT})*)?(?:\/\/[^\r\n]*)?(\r?\n)`,
);

interface RestOfLine {
  /** Where the comma is, when there is one. */
  comma: number | undefined;
  /** Whether a comment is on it. */
  commented: boolean;
  /** Where its line break is, and the break itself. */
  lineEnd: number;
  lineBreak: string;
  /** Past the line break. */
  end: number;
}

/** What follows `offset` to the end of its line, when that is only spaces, comments and a comma. */
function restOfLine(text: string, offset: number): RestOfLine | undefined {
  const rest = REST_OF_LINE.exec(text.slice(offset, text.indexOf('\n', offset) + 1 || undefined));
  if (rest === null) return undefined;
  const lineBreak = rest[3]!;
  const written = rest[0].slice(0, -lineBreak.length);
  return {
    comma: rest[2] === undefined ? undefined : offset + rest[1]!.length,
    commented: /\/[/*]/.test(written),
    lineEnd: offset + written.length,
    lineBreak,
    end: offset + rest[0].length,
  };
}

/**
 * `text` without the entry at `section.name` and the comma that separated it; an entry on lines of its own goes with
 * them and the comments on them, a comment on another entry's line stays there. Nothing else moves.
 */
export function removeServerEntry(text: string, section: ServerSection, name: string): string {
  const servers = findNodeAtLocation(parseTree(text) ?? emptyTree, section);
  const entry = servers === undefined ? undefined : findNodeAtLocation(servers, [name])?.parent;
  const siblings = servers?.children ?? [];
  if (servers === undefined || entry === undefined) return text;
  const index = siblings.indexOf(entry);
  const entryEnd = entry.offset + entry.length;
  if (siblings.length === 1) return withoutOnlyEntry(text, servers, entry);
  const previous = siblings[index - 1];
  const ownLines = entryLines(text, entry, previous);
  if (ownLines !== undefined) return applyEdits(text, ownLines);
  if (previous !== undefined) {
    // With the comma before it, and the comments after that comma: they were written about it. A comment between the
    // entry before and the comma (`"a": {…} /* c */, "b"`) is about that entry and stays, without the spaces after it.
    const previousEnd = previous.offset + previous.length;
    let start = commaAfter(text, previousEnd) ?? previousEnd;
    if (!text.slice(previousEnd, start).includes('\n')) {
      while (start > previousEnd && (text[start - 1] === ' ' || text[start - 1] === '\t')) start -= 1;
    }
    return applyEdits(text, [{ offset: start, length: entryEnd - start, content: '' }]);
  }
  // The first entry, with the comma after it; its line too when it has one to itself. What follows stays.
  const comma = /^[ \t]*,[ \t]*(\r?\n)?/.exec(text.slice(entryEnd));
  if (comma === null) {
    const next = siblings[index + 1]!;
    return applyEdits(text, [{ offset: entry.offset, length: next.offset - entry.offset, content: '' }]);
  }
  const lineStart = text.lastIndexOf('\n', entry.offset - 1) + 1;
  const ownLine = comma[1] !== undefined && /^[ \t]*$/.test(text.slice(lineStart, entry.offset));
  const start = ownLine ? lineStart : entry.offset;
  return applyEdits(text, [{ offset: start, length: entryEnd + comma[0].length - start, content: '' }]);
}

/**
 * `text` without the only entry of `servers` and the comma after it. An entry on lines of its own goes with them and
 * the comments on them; the object is left as `{}` when nothing but spaces stays in it, and the comments on lines of
 * their own in it stay. An entry on the line of the object's brace is cut from the brace, and the object laid out.
 */
function withoutOnlyEntry(text: string, servers: JsonNode, entry: JsonNode): string {
  const entryEnd = entry.offset + entry.length;
  // The comma after it, past any comment between: a comma left alone in the object would make the file unreadable.
  const comma = commaAfter(text, entryEnd);
  const lineStart = text.lastIndexOf('\n', entry.offset - 1) + 1;
  const rest = restOfLine(text, entryEnd);
  const ownLines =
    rest !== undefined && lineStart > servers.offset && /^[ \t]*$/.test(text.slice(lineStart, entry.offset));
  const start = ownLines ? lineStart : servers.offset + 1;
  const end = ownLines ? rest!.end : entryEnd;
  const edits: Edit[] = [{ offset: start, length: end - start, content: '' }];
  if (comma !== undefined && comma >= end) edits.push(commaEdit(text, comma));
  const emptied = applyEdits(text, edits);
  const removed = edits.reduce((total, edit) => total + edit.length, 0);
  const insideLength = servers.length - 2 - removed;
  if (ownLines) {
    // Nothing but spaces left between the braces: `{}`, as a new file has it.
    if (!/^\s*$/.test(emptied.slice(servers.offset + 1, servers.offset + 1 + insideLength))) return emptied;
    return applyEdits(emptied, [{ offset: servers.offset + 1, length: insideLength, content: '' }]);
  }
  return applyEdits(emptied, format(emptied, { offset: servers.offset, length: insideLength + 2 }, formattingOf(text)));
}

/** The edit that takes out the comma at `comma`: with its line when nothing else is on it. */
function commaEdit(text: string, comma: number): Edit {
  const lineStart = text.lastIndexOf('\n', comma - 1) + 1;
  const after = /^[ \t]*\r?\n/.exec(text.slice(comma + 1, text.indexOf('\n', comma) + 1 || undefined));
  if (after === null || !/^[ \t]*$/.test(text.slice(lineStart, comma)))
    return { offset: comma, length: 1, content: '' };
  return { offset: lineStart, length: comma + 1 + after[0].length - lineStart, content: '' };
}

/** A line with only a line comment on it. */
const COMMENT_LINE = /^[ \t]*\/\/[^\r\n]*\r?\n$/;

/**
 * The edits that take out an entry written on lines of its own, of several: those lines and the comments on them,
 * and, unless it is the first (`previous` is the entry before it), the line comments on lines of their own just above
 * it (written about it) and, when it was the last, the comma after the entry before it, or its own comma when written
 * first on its line. A comment on another entry's line stays with that entry. Undefined when the entry shares a line
 * with another.
 */
function entryLines(text: string, entry: JsonNode, previous: JsonNode | undefined): Edit[] | undefined {
  const entryEnd = entry.offset + entry.length;
  const lineStart = text.lastIndexOf('\n', entry.offset - 1) + 1;
  const rest = restOfLine(text, entryEnd);
  const before = text.slice(lineStart, entry.offset);
  // Written comma first (`, "b": …`): the comma on its line is its own, and the line goes whole.
  const commaFirst = previous !== undefined && /^[ \t]*,[ \t]*$/.test(before);
  if (rest === undefined || !(commaFirst || /^[ \t]*$/.test(before))) return undefined;
  if (previous === undefined) {
    return rest.comma !== undefined ? [{ offset: lineStart, length: rest.end - lineStart, content: '' }] : undefined;
  }
  const previousEnd = previous.offset + previous.length;
  if (lineStart <= previousEnd) return undefined;
  let start = lineStart;
  for (;;) {
    const above = text.lastIndexOf('\n', start - 2) + 1;
    if (above <= previousEnd || !COMMENT_LINE.test(text.slice(above, start))) break;
    start = above;
  }
  const lines: Edit = { offset: start, length: rest.end - start, content: '' };
  if (commaFirst || rest.comma !== undefined) return [lines];
  // The last entry: the comma that separated it goes too.
  const comma = commaAfter(text, previousEnd);
  if (comma === undefined || comma >= start) return undefined;
  return [{ offset: comma, length: 1, content: '' }, lines];
}

/** Where the comma after an entry ending at `offset` is, past spaces and comments; undefined when the next token is another. */
function commaAfter(text: string, offset: number): number | undefined {
  const scanner = createScanner(text, true);
  scanner.setPosition(offset);
  return scanner.scan() === SyntaxKind.CommaToken ? scanner.getTokenOffset() : undefined;
}

const emptyTree: JsonNode = { type: 'object', offset: 0, length: 0, children: [] };

/**
 * The formatting edits of the object `path` was inserted into, unformatted, but none inside an entry it had before:
 * those lay out the new entry (from `layOutFrom`, the comma before it or the end of the comment after that), the
 * object's closing brace, and when the object was on one line, the breaks between its entries.
 */
function layOutInsertion(base: string, edited: string, path: string[], layOutFrom: number): Edit[] {
  const before = parseTree(base) ?? emptyTree;
  const after = parseTree(edited) ?? emptyTree;
  // The object the edit went into: that of the first key of the path the file did not have.
  let depth = 0;
  while (depth < path.length - 1 && findNodeAtLocation(before, path.slice(0, depth + 1)) !== undefined) depth += 1;
  const parentPath = path.slice(0, depth);
  const parentBefore = parentPath.length === 0 ? before : findNodeAtLocation(before, parentPath);
  const parentAfter = (parentPath.length === 0 ? after : findNodeAtLocation(after, parentPath)) ?? after;
  const edits = format(edited, { offset: parentAfter.offset, length: parentAfter.length }, formattingOf(base));
  const kept = parentBefore?.children ?? [];
  if (parentBefore === undefined || kept.length === 0) return edits;
  const oneLine = !/[\r\n]/.test(base.slice(parentBefore.offset, parentBefore.offset + parentBefore.length));
  // The entries kept sit where they were: the new one went in after the last of them.
  const insideKept = (edit: Edit) =>
    kept.some((node) => edit.offset > node.offset && edit.offset + edit.length < node.offset + node.length);
  return edits.filter((edit) => !insideKept(edit) && (oneLine || edit.offset >= layOutFrom));
}

/** Indentation and line ends as the file already has them (two spaces and `\n` for a new file). */
function formattingOf(text: string): FormattingOptions {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const indent = /^([ \t]+)\S/m.exec(text)?.[1];
  if (indent?.startsWith('\t')) return { insertSpaces: false, tabSize: 1, eol };
  return { insertSpaces: true, tabSize: indent === undefined ? 2 : Math.min(indent.length, 8), eol };
}
