/**
 * What changed in a tool since it was approved, as a small unified diff, for the approval view. A rug pull is a
 * changed description or schema; the user must see exactly which lines changed, not two blobs to compare by eye.
 * The description is shown line by line (it is where poisoned text hides) and the rest as key-sorted JSON.
 * Invisible characters are escaped in the output, never in the definitions.
 */

import { stableStringify } from '../catalog/stable-json.js';
import { showRaw } from './hidden-content.js';
import type { ToolDefinitionSnapshot } from './tool-definition.js';

/** Lines of context around each change. */
const CONTEXT_LINES = 3;
/** Past this many lines per side the comparison table would be large; the diff then shows everything replaced. */
const MAX_COMPARED_LINES = 2_000;

function definitionLines(definition: ToolDefinitionSnapshot | undefined): string[] {
  if (definition === undefined) return [];
  const { description, ...rest } = definition;
  const lines: string[] = [];
  if (description !== undefined) {
    lines.push('description:');
    for (const line of description.split('\n')) lines.push(`  ${line}`);
  }
  // Key-sorted and indented: one line per value, in the same order on both sides.
  lines.push(...stableStringify(rest, 2).split('\n'));
  return lines.map(showRaw);
}

type Operation = { kind: ' ' | '-' | '+'; line: string };

function compareLines(before: string[], after: string[]): Operation[] {
  if (before.length > MAX_COMPARED_LINES || after.length > MAX_COMPARED_LINES) {
    return [
      ...before.map((line): Operation => ({ kind: '-', line })),
      ...after.map((line): Operation => ({ kind: '+', line })),
    ];
  }
  // Longest common subsequence, filled from the end so the walk below goes forwards.
  const lengths = Array.from({ length: before.length + 1 }, () => new Array<number>(after.length + 1).fill(0));
  for (let i = before.length - 1; i >= 0; i -= 1) {
    for (let j = after.length - 1; j >= 0; j -= 1) {
      lengths[i]![j] =
        before[i] === after[j] ? lengths[i + 1]![j + 1]! + 1 : Math.max(lengths[i + 1]![j]!, lengths[i]![j + 1]!);
    }
  }
  const operations: Operation[] = [];
  let i = 0;
  let j = 0;
  while (i < before.length || j < after.length) {
    if (i < before.length && j < after.length && before[i] === after[j]) {
      operations.push({ kind: ' ', line: before[i]! });
      i += 1;
      j += 1;
    } else if (j < after.length && (i >= before.length || lengths[i]![j + 1]! >= lengths[i + 1]![j]!)) {
      operations.push({ kind: '+', line: after[j]! });
      j += 1;
    } else {
      operations.push({ kind: '-', line: before[i]! });
      i += 1;
    }
  }
  return operations;
}

/**
 * A unified diff (`--- approved`, `+++ current`, `@@` hunks) of two definitions; `''` when they are the same.
 * `previous` undefined (a tool never approved) shows every line as added.
 */
export function diffToolDefinitions(
  previous: ToolDefinitionSnapshot | undefined,
  current: ToolDefinitionSnapshot,
): string {
  const operations = compareLines(definitionLines(previous), definitionLines(current));
  if (operations.every((operation) => operation.kind === ' ')) return '';
  const output = ['--- approved', '+++ current'];
  let index = 0;
  let beforeLine = 1;
  let afterLine = 1;
  while (index < operations.length) {
    if (operations[index]!.kind === ' ') {
      index += 1;
      beforeLine += 1;
      afterLine += 1;
      continue;
    }
    // A hunk: back up to CONTEXT_LINES of context, extend while changes are closer than twice the context.
    const start = Math.max(0, index - CONTEXT_LINES);
    let end = index;
    let unchangedRun = 0;
    while (end < operations.length && unchangedRun <= CONTEXT_LINES * 2) {
      unchangedRun = operations[end]!.kind === ' ' ? unchangedRun + 1 : 0;
      end += 1;
    }
    end -= Math.max(0, unchangedRun - CONTEXT_LINES);
    const hunk = operations.slice(start, end);
    const leading = index - start;
    const beforeStart = beforeLine - leading;
    const afterStart = afterLine - leading;
    const beforeCount = hunk.filter((operation) => operation.kind !== '+').length;
    const afterCount = hunk.filter((operation) => operation.kind !== '-').length;
    output.push(`@@ -${beforeStart},${beforeCount} +${afterStart},${afterCount} @@`);
    for (const operation of hunk) output.push(`${operation.kind}${operation.line}`);
    for (const operation of operations.slice(index, end)) {
      if (operation.kind !== '+') beforeLine += 1;
      if (operation.kind !== '-') afterLine += 1;
    }
    index = end;
  }
  return output.join('\n');
}
