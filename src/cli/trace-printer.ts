/**
 * `run --trace`: the lifecycle on stderr, in order, with the real messages: discovery, translation
 * #1 (the provider tool definitions), the model's decision, translation #2 (the `tools/call`), the
 * result, translation #3 (the provider tool result), the final answer.
 */
import { redactArguments, redactArgumentText, redactValues } from '../audit/redact.js';
import type { Host } from '../host/create-host.js';
import type { AgentEvent } from '../loop/events.js';
import { showInvisibleCharacters, showOnOneLine } from '../text/invisible-characters.js';
import { redactSecrets } from '../text/redact-secrets.js';
import { writeStderrText } from './output.js';

/** Every trace line goes out through this: with the run's known secrets replaced, whatever printed them. */
function traceWriter(secrets: readonly string[]): (text: string) => void {
  return (text) => writeStderrText(redactSecrets(text, secrets));
}

export function traceDiscovery(host: Host, secrets: readonly string[] = []): void {
  const write = traceWriter(secrets);
  const servers = host.servers();
  write(section('discovery', `${servers.length} server(s), ${host.catalog().size} tool(s)`));
  for (const server of servers) {
    const version = server.protocolVersion ? ` protocol ${server.protocolVersion}` : '';
    write(
      `  ${server.name}: ${server.state}${version}${server.toolCount !== undefined ? `, ${server.toolCount} tool(s)` : ''}`,
    );
  }
  // The server's own name for a tool may hide characters or break the line: shown as escapes, on one line, as the
  // approval view shows it.
  for (const entry of host.catalog().entries) {
    write(`  ${entry.name} → ${entry.server} / ${showOnOneLine(entry.tool.name)}`);
  }
}

/**
 * `secrets`: the run's known secrets (read at each event: the list grows during the run), replaced wherever they
 * occur, as in the audit log; values under secret-named argument keys are hidden too.
 */
export function createTracer(secrets: readonly string[] = []): (event: AgentEvent) => void {
  let toolsShown = false;
  const write = traceWriter(secrets);
  const json = (value: unknown): void => write(asJson(secrets.length === 0 ? value : redactValues(value, { secrets })));
  return (event) => {
    switch (event.type) {
      case 'provider-request': {
        const body = event.body as Record<string, unknown>;
        if (!toolsShown) {
          toolsShown = true;
          write(section('translation #1: tool definitions sent to the provider', event.provider));
          json(findTools(body));
        }
        const results = toolResultsPart(body);
        if (event.turn > 1 && results !== undefined) {
          write(section('translation #3: tool results as the provider receives them', `turn ${event.turn}`));
          json(results);
        }
        break;
      }
      case 'model-response': {
        const calls = event.message.content.filter((part) => part.type === 'tool-call');
        write(section("the model's decision", `turn ${event.turn}, stop: ${event.stopReason}`));
        if (calls.length === 0) write('  no tool calls: the model answers');
        for (const call of calls) {
          // What the model asked for, exactly: a hidden character in a name or an argument shows as its escape.
          write(
            showInvisibleCharacters(
              `  call ${call.id}: ${call.name}(${redactArgumentText(call.argumentsText, secrets)})`,
            ),
          );
        }
        break;
      }
      case 'tool-call-request':
        write(section('translation #2: tools/call sent to the server', `server ${event.server}`));
        json({
          method: 'tools/call',
          params: { name: event.tool, arguments: redactArguments(event.arguments, { secrets }) },
        });
        break;
      case 'tool-call-end':
        write(section('result', `${event.name}: ${event.outcome} in ${event.durationMs} ms`));
        json(event.rawResult ?? event.result);
        break;
      case 'run-end':
        write(section('final answer', `${event.stopReason} after ${event.turns} turn(s)`));
        write(indent(event.text || '(no text)'));
        break;
      default:
        break;
    }
  };
}

function section(title: string, detail: string): string {
  return `\n── ${title} ── ${detail}`;
}

function asJson(value: unknown): string {
  return indent(JSON.stringify(value, null, 2) ?? 'undefined');
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
}

function findTools(body: Record<string, unknown>): unknown {
  if (body.tools !== undefined) return body.tools;
  const config = body.config as Record<string, unknown> | undefined;
  return config?.tools ?? [];
}

/** The part of a request body that carries the latest tool results, whatever the wire format. */
function toolResultsPart(body: Record<string, unknown>): unknown {
  const list = (body.messages ?? body.input ?? body.contents) as Array<Record<string, unknown>> | undefined;
  if (!Array.isArray(list)) return undefined;
  let lastModel = -1;
  list.forEach((item, index) => {
    if (item.role === 'assistant' || item.role === 'model' || item.type === 'function_call') lastModel = index;
  });
  return lastModel === -1 ? undefined : list.slice(lastModel + 1);
}
