/**
 * Shows one turn's events as they come: the answer streamed through the Markdown renderer, one line per tool call
 * once it ends (calls still running shown on the live line), warnings, and how the turn stopped.
 */
import type { AgentEvent } from '../../loop/events.js';
import { createControlCodeStream } from '../../text/control-code-stream.js';
import { stripControlCodes } from '../../text/strip-control-codes.js';
import type { ChatOutput } from './chat-output.js';
import { createMarkdownStream } from './markdown-stream.js';
import { formatToolCallLine, type ToolCallView } from './tool-call-line.js';
import { createToolCallLog, type ToolCallLog } from './tool-call-log.js';

interface TurnRenderer {
  event(event: AgentEvent): void;
  /** Closes what is open (styles, the live line). */
  finish(): void;
}

/**
 * `shownWarnings`: warnings already shown in this chat (each is shown once, as `run` does per run). `calls`: the
 * conversation's numbered calls; each call's line starts with its number (`[3]`) for `/expand`, the number of its
 * place in the model's answer, though the turn's calls end in any order.
 */
export function createTurnRenderer(
  output: ChatOutput,
  secrets: readonly string[],
  shownWarnings: Set<string> = new Set(),
  /** A line saying where a tool's MCP Apps view can be seen, for tools that have one. */
  viewNoteOf: (toolName: string) => string | undefined = () => undefined,
  calls: ToolCallLog = createToolCallLog(),
): TurnRenderer {
  const markdown = createMarkdownStream(output.styles, output.styled);
  // A control sequence cut between two pieces of the answer is removed whole, not its tail printed as text.
  const stripped = createControlCodeStream();
  const views = new Map<string, ToolCallView>();
  const running = new Set<string>();
  let streamedText = false;

  const endText = (): void => {
    output.writeStyled(markdown.end());
    output.endLine();
  };
  const showRunning = (): void => {
    const names = [...running].map((id) => views.get(id)?.tool ?? id);
    output.live(names.length === 0 ? undefined : `… running ${names.join(', ')}`);
  };

  return {
    event(event) {
      switch (event.type) {
        case 'text-delta':
          streamedText = true;
          output.writeStyled(markdown.push(stripped.push(event.text)));
          break;
        case 'model-response': {
          if (!streamedText) {
            const text = event.message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
            if (text !== '') output.writeStyled(markdown.push(stripControlCodes(text)));
          } else output.writeStyled(markdown.push(stripped.end()));
          streamedText = false;
          endText();
          // Each call's number is its place in the model's answer, whichever of them ends first.
          calls.listed(event.message.content.flatMap((part) => (part.type === 'tool-call' ? [part.id] : [])));
          break;
        }
        case 'tool-call-start':
          views.set(event.callId, { tool: event.name, argumentsText: event.argumentsText });
          break;
        case 'tool-call-request':
          views.set(event.callId, { server: event.server, tool: event.tool, arguments: event.arguments });
          running.add(event.callId);
          showRunning();
          break;
        case 'tool-call-warning':
          if (shownWarnings.has(event.message)) break;
          shownWarnings.add(event.message);
          output.line(`! ${event.message}`);
          break;
        case 'tool-call-end': {
          running.delete(event.callId);
          // A call that never reached its server (denied, invalid, the host's own tool) is shown by its namespaced
          // name, which already says the server: `calculator calculator__divide` said it twice.
          const view = views.get(event.callId) ?? { tool: event.name };
          const { outcome, durationMs, result } = event;
          const number = calls.add({ view, outcome, durationMs, result }, event.callId);
          output.live(undefined);
          output.writeStyled(
            `${output.styles.dim(`[${number}]`)} ${formatToolCallLine(view, event, secrets, output.styles, output.columns() - `[${number}] `.length)}\n`,
          );
          const note = viewNoteOf(event.name);
          if (note !== undefined) output.line(output.styles.dim(`  ${note}`));
          showRunning();
          break;
        }
        case 'run-end':
          endText();
          output.live(undefined);
          if (event.stopReason === 'aborted') output.line(output.styles.dim('(turn cancelled)'));
          else if (event.stopReason !== 'end' && event.message) output.line(`mcp-host: ${event.message}`);
          break;
        default:
          break;
      }
    },
    finish() {
      endText();
      output.live(undefined);
    },
  };
}
