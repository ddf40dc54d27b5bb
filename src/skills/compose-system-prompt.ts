/**
 * The system prompt the model gets on every request, from its parts in a fixed order: the caller's own system text,
 * the project instructions (user, then repository root down to the config's folder), the project memory, the servers'
 * own instructions, then the skills listing. Each part is kept with its token cost, for `mcp-host context`.
 */

import { estimateTextTokens } from '../providers/token-estimate/index.js';
import type { InstructionFile } from './project-instructions.js';
import { type ServerInstructions, serverInstructionsSection } from './server-instructions.js';

type SystemPromptPartKind =
  | 'system'
  | 'user-instructions'
  | 'instructions'
  | 'memory'
  | 'server-instructions'
  | 'skills';

interface SystemPromptPart {
  kind: SystemPromptPartKind;
  /** The file it came from; for the skills listing, how many skills; for the caller's text, `options.system`. */
  source: string;
  text: string;
  /** Of the text as it appears in the prompt (heading included), o200k estimate. */
  tokens: number;
}

export interface ComposedSystemPrompt {
  /** Undefined when there is nothing to say (no system text, no instructions, no skills). */
  text: string | undefined;
  parts: SystemPromptPart[];
  /** Of the whole text. */
  tokens: number;
}

export function composeSystemPrompt(input: {
  system?: string;
  instructions: readonly InstructionFile[];
  /** Servers' own instructions, already bounded, in the config's order. */
  serverInstructions?: readonly ServerInstructions[];
  skillsListing: string;
  skillCount: number;
}): ComposedSystemPrompt {
  const parts: SystemPromptPart[] = [];
  const add = (kind: SystemPromptPartKind, source: string, text: string): void => {
    parts.push(withTokens({ kind, source, text }));
  };
  if (input.system !== undefined && input.system !== '') add('system', 'system option', input.system);
  for (const file of input.instructions) {
    const heading = file.kind === 'memory' ? `# Project memory (${file.file})` : `# Instructions from ${file.file}`;
    add(
      file.kind === 'user' ? 'user-instructions' : file.kind === 'memory' ? 'memory' : 'instructions',
      file.file,
      `${heading}\n\n${file.text}`,
    );
  }
  for (const server of input.serverInstructions ?? []) {
    add('server-instructions', `server ${server.server}`, serverInstructionsSection(server));
  }
  if (input.skillsListing !== '') {
    add('skills', `${input.skillCount} skill${input.skillCount === 1 ? '' : 's'}`, input.skillsListing);
  }
  if (parts.length === 0) return { text: undefined, parts, tokens: 0 };
  const text = parts.map((part) => part.text).join('\n\n');
  return withTokens({ text, parts });
}

/**
 * Adds `tokens`, counted when first read: only `mcp-host context` reads it, and counting loads the tokenizer, which
 * costs more than the rest of a run's start-up. (A getter, not a spread copy: spreading would count at once.)
 */
function withTokens<T extends { text: string }>(value: T): T & { tokens: number } {
  let tokens: number | undefined;
  return Object.defineProperty(value, 'tokens', {
    enumerable: true,
    get: () => {
      tokens ??= estimateTextTokens(value.text);
      return tokens;
    },
  }) as T & { tokens: number };
}
