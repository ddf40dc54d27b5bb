/**
 * What a person sees before saying yes: plain text, the same in a terminal and in logs. Everything the server
 * controls (names, descriptions, arguments echoed back) goes through `showRaw`, so a description cannot hide
 * from the very view meant to expose it.
 */

import { showOnOneLine } from '../text/invisible-characters.js';
import { pairSafeIndex } from '../text/surrogate-pairs.js';
import type { DefinitionApprovalRequest, ServerApprovalRequest, ToolApprovalRequest } from './approver.js';
import { describeHiddenContent, type HiddenContentFlag, showRaw } from './hidden-content.js';
import { describeAnnotations } from './tool-annotations.js';

const RULE = '─'.repeat(60);

function field(label: string, value: string): string {
  return `  ${`${label}:`.padEnd(13)}${value}`;
}

function indent(text: string, prefix = '    '): string {
  return text
    .split('\n')
    .map((line) => `${prefix}${line}`)
    .join('\n');
}

function hiddenContentLines(flags: readonly HiddenContentFlag[], description: string | undefined): string[] {
  if (flags.length === 0) return [];
  const lines = ['  ! Hidden content in the tool definition:'];
  flags.forEach((flag) => {
    lines.push(`    - ${describeHiddenContent([flag])[0]}`);
    if (flag.excerpt !== undefined) lines.push(`      raw: ${flag.excerpt}`);
  });
  if (description !== undefined && flags.some((flag) => flag.location === undefined)) {
    lines.push('  Description, raw (invisible characters shown as escapes):');
    lines.push(indent(showRaw(description)));
  }
  return lines;
}

/**
 * The most characters of a call's arguments the view shows, as `/expand` shows them. Past it the start and the end are
 * shown with how much was left out between: the view's own lines, which name the server and the tool, stay on screen
 * above the question, and arguments cannot fill a screen with what looks like a view of another call.
 */
export const MAX_SHOWN_ARGUMENTS = 4_000;
const SHOWN_ARGUMENTS_END = 1_000;

function argumentsText(value: unknown): string {
  if (value === undefined) return '(none)';
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Whether the view leaves part of a call's arguments out, so that a surface can offer to show them whole. */
export function argumentsCutInView(value: unknown): boolean {
  return argumentsText(value).length > MAX_SHOWN_ARGUMENTS;
}

/** A call's arguments whole, as the view shows them but with nothing left out: for a person who asks to see them. */
export function formatWholeArguments(value: unknown): string {
  return `  Arguments, whole:\n${indent(showRaw(argumentsText(value)))}\n`;
}

function prettyArguments(value: unknown): string {
  const text = argumentsText(value);
  if (value === undefined || text.length <= MAX_SHOWN_ARGUMENTS) return showRaw(text);
  const headEnd = pairSafeIndex(text, MAX_SHOWN_ARGUMENTS - SHOWN_ARGUMENTS_END);
  const tailStart = pairSafeIndex(text, text.length - SHOWN_ARGUMENTS_END);
  const left = tailStart - headEnd;
  return `${showRaw(text.slice(0, headEnd))}\n… ${left} characters of the arguments not shown here; the call sends them all …\n${showRaw(text.slice(tailStart))}`;
}

export function formatToolCallApproval(request: ToolApprovalRequest): string {
  const annotationNote = request.trust === 'trusted' ? '' : ' (server untrusted: not relied on)';
  const lines = [
    RULE,
    'A tool call needs your approval',
    field('Server', `${showRaw(request.serverName)} (${request.trust})`),
    field('Tool', `${showRaw(request.toolName)}  (the server calls it ${showOnOneLine(request.originalToolName)})`),
    field('Why it asks', request.reason),
    field('Annotations', `${describeAnnotations(request.annotations)}${annotationNote}`),
    ...request.warnings.map((warning) => field('Warning', warning)),
    ...hiddenContentLines(request.hiddenContent, request.description),
    '  Arguments:',
    indent(prettyArguments(request.arguments)),
    RULE,
  ];
  return `${lines.join('\n')}\n`;
}

export function formatDefinitionApproval(request: DefinitionApprovalRequest): string {
  const lines = [
    RULE,
    request.previous === undefined
      ? 'A new tool is withheld until you approve it'
      : 'A tool changed since you approved it; it is withheld until you approve it again',
    field('Server', `${showRaw(request.serverName)} (${request.trust})`),
    field('Tool', `${showRaw(request.toolName)}  (the server calls it ${showOnOneLine(request.originalToolName)})`),
    field('Why', request.reason),
    field('Annotations', describeAnnotations(request.current.annotations)),
    ...hiddenContentLines(request.hiddenContent, request.current.description),
    request.previous === undefined ? '  Definition:' : '  What changed:',
    indent(request.diff === '' ? '(no difference in the pinned fields)' : request.diff),
    RULE,
  ];
  return `${lines.join('\n')}\n`;
}

export function formatServerApproval(request: ServerApprovalRequest): string {
  const lines = [
    RULE,
    request.change === 'server-changed'
      ? 'A server changed what it runs; its tools are withheld until you approve it again'
      : 'A revoked server is withheld until you approve it again',
    field('Server', `${showRaw(request.serverName)} (${request.trust})`),
    field('Runs', showRaw(request.target)),
    field('Why', request.reason),
    field('Tools', request.toolNames.length === 0 ? '(none listed)' : request.toolNames.map(showRaw).join(', ')),
    RULE,
  ];
  return `${lines.join('\n')}\n`;
}
