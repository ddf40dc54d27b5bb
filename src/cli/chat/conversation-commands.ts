/** The conversation itself: `/model`, `/clear`, `/compact`, `/save FILE`, `/cost`, `/exit`. */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseModelSpec } from '../../host/model-choice.js';
import { formatTranscriptMarkdown } from '../../sessions/format-transcript.js';
import { openSessionStore } from '../../sessions/session-store.js';
import { scriptFileProblem } from '../../testing/script-file.js';
import { escapeJsonControlCodes } from '../../text/strip-control-codes.js';
import { missingKeyOf } from '../check-model-key.js';
import { modelLabel } from './model-label.js';
import { ChatCommandError, type SlashCommand } from './slash-command.js';

const PROVIDERS = ['anthropic', 'openai', 'openai-responses', 'gemini', 'ollama', 'openai-compatible', 'scripted'];

/**
 * What stands in the way of a model spec, as `run` and `chat` say it at start: a missing key, or a scripted model's
 * missing script (a path here is from the current folder, as on the command line); nothing for a spec that does not
 * parse, which `setModel` then refuses.
 */
function modelProblemOfSpec(spec: string): string | undefined {
  let parsed: ReturnType<typeof parseModelSpec>;
  try {
    parsed = parseModelSpec(spec);
  } catch {
    return undefined;
  }
  const chosen = `${parsed.provider}:${parsed.model}`;
  if (parsed.provider === 'scripted') {
    const problem = scriptFileProblem(parsed.model);
    return problem === undefined ? undefined : `the model ${chosen} needs its script, and ${problem}`;
  }
  return missingKeyOf(chosen, parsed.provider, process.env);
}

/** Why `/save` could not write `file`, in words rather than the system's error code. */
function writeProblem(file: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return `the folder ${path.dirname(file)} does not exist`;
  if (code === 'EISDIR') return 'it is a folder';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return error instanceof Error ? error.message : String(error);
}

export const modelCommand: SlashCommand = {
  name: 'model',
  usage: 'provider:model',
  summary: 'switch the model; the next turn uses it (no argument: the model in use)',
  async run({ conversation, output }, argument) {
    const spec = argument.trim();
    if (spec === '') {
      output.line(`model: ${modelLabel(conversation.model())}`);
      return;
    }
    // Said as run and chat say it at start, before the provider's own words for its library's callers.
    const problem = modelProblemOfSpec(spec);
    if (problem !== undefined) throw new ChatCommandError(`${problem}, or choose another model with /model`);
    await conversation.setModel(spec);
    output.line(`model: ${modelLabel(conversation.model())} (from the next turn)`);
  },
  async complete(_context, argument) {
    return PROVIDERS.map((provider) => `${provider}:`).filter((prefix) => prefix.startsWith(argument));
  },
};

export const clearCommand: SlashCommand = {
  name: 'clear',
  summary: 'forget the conversation and start a new one',
  async run({ conversation, calls, output }) {
    conversation.clear();
    calls.clear();
    output.line(`(a new conversation: ${conversation.id})`);
  },
};

export const compactCommand: SlashCommand = {
  name: 'compact',
  summary: 'summarise older turns now, to free context',
  async run({ conversation, output }) {
    const { compacted, beforeTokens, afterTokens } = await conversation.compact();
    // The newest whole turn is always kept: with nothing older than it there is nothing to summarise.
    if (!compacted) {
      output.line(`nothing to compact: about ${beforeTokens} tokens, all in the turns kept as they are`);
      return;
    }
    output.line(`compacted: about ${beforeTokens} → ${afterTokens} tokens`);
  },
};

export const saveCommand: SlashCommand = {
  name: 'save',
  usage: 'FILE',
  summary: 'write the saved transcript to FILE, as `mcp-host sessions export` does (Markdown; JSON for .json)',
  async run({ host, conversation, output }, argument) {
    const file = argument.trim();
    if (file === '') throw new ChatCommandError('/save needs a file name: /save notes.md');
    if (conversation.history.length === 0) throw new ChatCommandError('nothing to save yet: the conversation is empty');
    await conversation.save();
    const saved = openSessionStore(host.stateDir).read(conversation.id);
    const { id, createdAt } = saved;
    const { title, config } = saved.header;
    const text =
      path.extname(file).toLowerCase() === '.json'
        ? `${escapeJsonControlCodes(JSON.stringify({ id, title, config, model: saved.model, createdAt, updatedAt: saved.updatedAt, messages: saved.messages }, null, 2))}\n`
        : formatTranscriptMarkdown(saved);
    const target = path.resolve(file);
    await writeFile(target, text, { mode: 0o600 }).catch((error: unknown) => {
      throw new ChatCommandError(`could not save to ${target}: ${writeProblem(target, error)}`);
    });
    output.line(`saved ${saved.messages.length} message(s) to ${target}`);
  },
};

export const costCommand: SlashCommand = {
  name: 'cost',
  summary: 'tokens in, out and cached so far',
  async run({ conversation, output }) {
    const usage = conversation.usage();
    output.line(
      `tokens: ${usage.inputTokens} in (${usage.cachedInputTokens} of them cached), ${usage.outputTokens} out · ${modelLabel(conversation.model())}`,
    );
  },
};

export const exitCommand: SlashCommand = {
  name: 'exit',
  summary: 'leave the chat (also Ctrl-D, or Ctrl-C twice)',
  async run(context) {
    context.exit();
  },
};
