/**
 * The conversation at the terminal: read a line, run it as a command or send it as a turn, show the turn as it
 * streams, and come back to the prompt. Ctrl-C during a turn cancels that turn (the conversation aborts the model
 * request and cancels calls in flight); at an empty prompt, a second Ctrl-C in a row leaves, as does Ctrl-D.
 */
import type { Host } from '../../host/create-host.js';
import type { UserPart } from '../../providers/types.js';
import { viewNote } from '../view-note.js';
import { attachResources } from './attach-resources.js';
import type { ChatContext, ChatConversation } from './chat-context.js';
import type { ChatInput } from './chat-input.js';
import type { ChatOutput } from './chat-output.js';
import { savedToolCalls } from './saved-tool-calls.js';
import { runSlashCommand } from './slash-commands.js';
import { createToolCallLog } from './tool-call-log.js';
import { createTurnRenderer } from './turn-renderer.js';
import { showUnfinishedCalls } from './unfinished-calls.js';

interface ChatLoop {
  readonly context: ChatContext;
  /** Reads and answers until the person leaves or the input ends. */
  run(): Promise<void>;
  /** Cancels the turn in flight, if any, and ends the chat (SIGTERM, SIGHUP). */
  stop(): Promise<void>;
}

export function createChatLoop(options: {
  host: Host;
  conversation: ChatConversation;
  input: ChatInput;
  output: ChatOutput;
}): ChatLoop {
  const { host, conversation, input, output } = options;
  const secrets = host.config.secrets;
  let current: { controller: AbortController; cancelling?: Promise<void> } | undefined;
  let interruptedOnce = false;
  let leaving = false;
  const shownWarnings = new Set<string>();
  const calls = createToolCallLog();
  // A resumed conversation's calls keep their numbers, those a compaction summarised counted: new ones follow them,
  // and /expand reaches them.
  calls.restore(savedToolCalls(conversation.history), conversation.compactedToolCalls);

  const cancelTurn = (): Promise<void> => {
    if (current === undefined) return Promise.resolve();
    if (current.cancelling === undefined) {
      output.live(undefined);
      output.line(output.styles.dim('(cancelling the turn…)'));
      current.controller.abort(new Error('cancelled with Ctrl-C'));
      current.cancelling = conversation.cancel().catch(() => {});
    }
    return current.cancelling;
  };

  const context: ChatContext = {
    host,
    conversation,
    output,
    input,
    calls,
    async turn(text: string, images: UserPart[] = []) {
      const controller = new AbortController();
      current = { controller };
      const renderer = createTurnRenderer(
        output,
        secrets,
        shownWarnings,
        (name) => viewNote(host.catalog(), name),
        calls,
      );
      try {
        const events = conversation.send(text, { ...(images.length > 0 ? { images } : {}), signal: controller.signal });
        for await (const event of events) renderer.event(event);
      } catch (error) {
        if (!controller.signal.aborted) output.line(`mcp-host: the turn failed: ${messageOf(error)}`);
      } finally {
        renderer.finish();
        if (controller.signal.aborted) await current.cancelling;
        current = undefined;
        showUnfinishedCalls(calls, conversation.history, output);
      }
    },
    exit() {
      leaving = true;
      input.close();
    },
  };

  input.onInterrupt(() => {
    if (current !== undefined) {
      void cancelTurn();
      return;
    }
    if (input.currentLine() !== '') {
      interruptedOnce = false;
      input.discardLine();
      return;
    }
    if (interruptedOnce) {
      context.exit();
      return;
    }
    interruptedOnce = true;
    input.notice(output.styles.dim('(Ctrl-C again, or Ctrl-D, to leave)'));
  });
  input.onQueuedLine(() => {
    if (current !== undefined) output.line(output.styles.dim('(kept: sent when this turn ends)'));
  });

  const prompt = output.styled ? '\u001b[1m›\u001b[22m ' : '> ';

  return {
    context,
    async run() {
      while (!leaving) {
        const line = await input.read(prompt);
        if (line === undefined) break;
        interruptedOnce = false;
        const text = line.trim();
        if (text === '') continue;
        try {
          if (text.startsWith('/')) {
            await runSlashCommand(context, text);
          } else {
            const message = await attachResources(context, text);
            await context.turn(message.text, message.images);
          }
        } catch (error) {
          output.line(`mcp-host: ${messageOf(error)}`);
        }
      }
      output.endLine();
    },
    async stop() {
      await cancelTurn();
      context.exit();
    },
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
