/**
 * What the person answering a server's request is shown: the server that asks, the full prompt for sampling,
 * each form field with its default, the whole URL with its domain marked. Every piece of text that came from the
 * server is shown raw (escape sequences and invisible characters made visible), so a server cannot rewrite the
 * screen or hide part of what is being approved.
 */
import type { SamplingMessage } from '@modelcontextprotocol/client';
import { base64DecodedSize, formatByteSize } from '../content/describe-content.js';
import { showRaw } from '../policy/hidden-content.js';
import { showOnOneLine } from '../text/invisible-characters.js';
import type {
  FormElicitationRequest,
  SamplingApprovalRequest,
  UrlElicitationRequest,
} from './client-request-approver.js';
import { highlightHostname } from './describe-url.js';
import type { FieldValue, FormField } from './elicitation-form-fields.js';

/** How the domain of a URL is marked; plain brackets when the output is not a terminal. */
export type HostnameMark = (hostname: string) => string;

export const TERMINAL_HOSTNAME_MARK: HostnameMark = (hostname) => `\x1b[1;4m${hostname}\x1b[0m`;
export const PLAIN_HOSTNAME_MARK: HostnameMark = (hostname) => `[${hostname}]`;

function indent(text: string, prefix = '    '): string {
  return text
    .split('\n')
    .map((line) => `${prefix}${line}`)
    .join('\n');
}

type SamplingBlock = Exclude<SamplingMessage['content'], unknown[]>;

function describeSamplingBlock(block: SamplingBlock): string {
  switch (block.type) {
    case 'text':
      return showRaw(block.text);
    case 'image':
      return `[image ${showRaw(block.mimeType)}, ${formatByteSize(base64DecodedSize(block.data))}]`;
    case 'audio':
      return `[audio ${showRaw(block.mimeType)}, ${formatByteSize(base64DecodedSize(block.data))}]`;
    case 'tool_use':
      return `[tool call ${showRaw(block.name)} (id ${showRaw(block.id)}) with ${showRaw(JSON.stringify(block.input))}]`;
    case 'tool_result': {
      const parts = block.content.map((part) => (part.type === 'text' ? showRaw(part.text) : `[${part.type} content]`));
      const flag = block.isError ? ' (error)' : '';
      return `[tool result for ${showRaw(block.toolUseId)}${flag}]\n${parts.join('\n')}`;
    }
    default:
      return `[${String((block as { type?: unknown }).type)} content]`;
  }
}

export function formatSamplingApproval(request: SamplingApprovalRequest): string {
  const lines = [
    '',
    `── Server "${showRaw(request.serverName)}" asks the host's model to answer a prompt (sampling) ──`,
    `Model: ${request.model}   Max tokens: ${request.maxTokens}`,
  ];
  if (request.modelHints.length > 0) {
    lines.push(`The server would prefer: ${request.modelHints.map((hint) => showOnOneLine(hint)).join(', ')}`);
  }
  if (request.notApplied.length > 0) lines.push(`Not applied: ${request.notApplied.join('; ')}`);
  if (request.systemPrompt !== undefined) lines.push('System prompt:', indent(showRaw(request.systemPrompt)));
  lines.push(`Prompt (${request.messages.length} message${request.messages.length === 1 ? '' : 's'}):`);
  for (const [index, message] of request.messages.entries()) {
    const blocks = Array.isArray(message.content) ? message.content : [message.content];
    lines.push(`  [${index + 1}] ${message.role}:`, indent(blocks.map(describeSamplingBlock).join('\n')));
  }
  if (request.tools.length > 0) {
    lines.push('Tools the server offers the model (the server runs them, not the host):');
    for (const tool of request.tools) {
      lines.push(`  - ${showOnOneLine(tool.name)}${tool.description ? `: ${showRaw(tool.description)}` : ''}`);
    }
  }
  lines.push(`The answer goes back to server "${showRaw(request.serverName)}".`, '');
  return lines.join('\n');
}

export function formatFormIntro(request: FormElicitationRequest): string {
  const lines = [
    '',
    `── Server "${showRaw(request.serverName)}" asks you to fill in a form ──`,
    showRaw(request.message),
    `Fields: ${request.fields.map((field) => `${showOnOneLine(field.label)}${field.required ? ' *' : ''}`).join(', ')}`,
  ];
  const secrets = request.fields.filter((field) => field.secret);
  if (secrets.length > 0) {
    lines.push(
      `⚠ ${secrets.map((field) => `"${showOnOneLine(field.label)}"`).join(', ')} seem${secrets.length === 1 ? 's' : ''} to ask for a password or other secret. MCP servers must not ask for secrets in forms; answer only if you trust this server.`,
    );
  }
  lines.push('');
  return lines.join('\n');
}

function describeFieldKind(field: FormField): string {
  switch (field.kind) {
    case 'text': {
      const limits = [
        field.format,
        field.minLength !== undefined ? `at least ${field.minLength} characters` : undefined,
        field.maxLength !== undefined ? `at most ${field.maxLength} characters` : undefined,
      ].filter((part) => part !== undefined);
      return limits.length > 0 ? `text, ${limits.join(', ')}` : 'text';
    }
    case 'number': {
      const range = [
        field.minimum !== undefined ? `≥ ${field.minimum}` : undefined,
        field.maximum !== undefined ? `≤ ${field.maximum}` : undefined,
      ].filter((part) => part !== undefined);
      return `${field.integer ? 'whole number' : 'number'}${range.length > 0 ? `, ${range.join(' and ')}` : ''}`;
    }
    case 'boolean':
      return 'yes/no';
    case 'choice':
      return 'one choice: type its number or value';
    case 'multi-choice': {
      const counts = [
        field.minItems !== undefined ? `at least ${field.minItems}` : undefined,
        field.maxItems !== undefined ? `at most ${field.maxItems}` : undefined,
      ].filter((part) => part !== undefined);
      return `choices separated by commas${counts.length > 0 ? ` (${counts.join(', ')})` : ''}`;
    }
  }
}

export function formatFieldValue(field: FormField, value: FieldValue | undefined): string {
  if (value === undefined) return '(left out)';
  if (field.secret) return '••••••';
  if (Array.isArray(value)) return value.map((item) => showRaw(item)).join(', ');
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return showRaw(String(value));
}

/** The lines shown before asking for one field; the prompt itself is `> `. */
export function formatFieldQuestion(field: FormField, position: number, count: number): string {
  const required = field.required ? ', required' : '';
  const lines = [`(${position}/${count}) ${showOnOneLine(field.label)} — ${describeFieldKind(field)}${required}`];
  if (field.description !== undefined) lines.push(`    ${showRaw(field.description)}`);
  if (field.kind === 'choice' || field.kind === 'multi-choice') {
    lines.push(
      `    ${field.choices.map((choice, index) => `${index + 1}) ${showOnOneLine(choice.label)}${choice.label !== choice.value ? ` [${showOnOneLine(choice.value)}]` : ''}`).join('  ')}`,
    );
  }
  if (field.secret) lines.push('    ⚠ This seems to ask for a password or other secret; what you type is shown.');
  if (field.default !== undefined) lines.push(`    Enter takes the default: ${formatFieldValue(field, field.default)}`);
  else if (!field.required) lines.push('    Enter leaves it out.');
  return `${lines.join('\n')}\n`;
}

export function formatUrlElicitation(request: UrlElicitationRequest, mark: HostnameMark): string {
  const { url } = request;
  const lines = [
    '',
    `── Server "${showRaw(request.serverName)}" asks you to open a URL ──`,
    showRaw(request.message),
    // A parsed URL is printable ASCII (the parser percent-encodes everything else), so only the mark styles it.
    `URL:    ${url.href !== undefined ? highlightHostname(url, mark) : showRaw(url.original)}`,
  ];
  if (url.hostname !== undefined) {
    const unicode = url.unicodeHostname !== undefined ? ` (in Unicode: ${showRaw(url.unicodeHostname)})` : '';
    lines.push(`Domain: ${url.hostname}${unicode}`);
  }
  for (const warning of url.warnings) lines.push(`⚠ ${showRaw(warning)}`);
  lines.push('Nothing has been fetched or opened.', '');
  return lines.join('\n');
}
