/** The conversation itself: `/model`, `/clear`, `/compact`, `/save FILE`, `/cost`, `/exit`. */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { escapeJsonControlCodes } from '../../text/strip-control-codes.js';
import { ChatCommandError, type SlashCommand } from './slash-command.js';
import { transcriptAsMarkdown } from './transcript-markdown.js';

const PROVIDERS = ['anthropic', 'openai', 'openai-responses', 'gemini', 'ollama', 'openai-compatible', 'scripted'];

export const modelCommand: SlashCommand = {
  name: 'model',
  usage: 'provider:model',
  summary: 'switch the model; the next turn uses it (no argument: the model in use)',
  async run({ conversation, output }, argument) {
    const spec = argument.trim();
    if (spec === '') {
      output.line(`model: ${conversation.model()}`);
      return;
    }
    await conversation.setModel(spec);
    output.line(`model: ${conversation.model()} (from the next turn)`);
  },
  async complete(_context, argument) {
    return PROVIDERS.map((provider) => `${provider}:`).filter((prefix) => prefix.startsWith(argument));
  },
};

export const clearCommand: SlashCommand = {
  name: 'clear',
  summary: 'forget the conversation and start a new one',
  async run({ conversation, output }) {
    conversation.clear();
    output.line(`(a new conversation: ${conversation.id})`);
  },
};

export const compactCommand: SlashCommand = {
  name: 'compact',
  summary: 'summarise older turns now, to free context',
  async run({ conversation, output }) {
    const { beforeTokens, afterTokens } = await conversation.compact();
    output.line(`compacted: about ${beforeTokens} → ${afterTokens} tokens`);
  },
};

export const saveCommand: SlashCommand = {
  name: 'save',
  usage: 'FILE',
  summary: 'write the transcript to FILE (Markdown; JSON when FILE ends in .json)',
  async run({ conversation, output }, argument) {
    const file = argument.trim();
    if (file === '') throw new ChatCommandError('/save needs a file name: /save notes.md');
    await conversation.save();
    const text =
      path.extname(file).toLowerCase() === '.json'
        ? `${escapeJsonControlCodes(JSON.stringify({ id: conversation.id, model: conversation.model(), messages: conversation.history }, null, 2))}\n`
        : transcriptAsMarkdown(conversation.history);
    await writeFile(file, text, { mode: 0o600 });
    output.line(`saved ${conversation.history.length} message(s) to ${path.resolve(file)}`);
  },
};

export const costCommand: SlashCommand = {
  name: 'cost',
  summary: 'tokens in, out and cached so far',
  async run({ conversation, output }) {
    const usage = conversation.usage();
    output.line(
      `tokens: ${usage.inputTokens} in (${usage.cachedInputTokens} of them cached), ${usage.outputTokens} out · ${conversation.model()}`,
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
