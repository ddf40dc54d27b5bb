/**
 * One run of the loop for a prompt: the user's turn (after a server prompt's messages, when one is named), the
 * system prompt composed once for the run, and the catalog swapped only as each turn begins.
 */
import type { ServerFeatureAccess } from '../client-features/server-feature-access.js';
import type { HostConfig } from '../config/types.js';
import type { RunResult } from '../loop/run-agent.js';
import type { ExecuteToolCall } from '../loop/tool-call-types.js';
import type { LlmProvider, Message, ToolDefinition, UserPart } from '../providers/types.js';
import type { HostSkills } from './host-skills.js';
import type { HostOptions, RunOptions } from './host-types.js';

interface RunSettings {
  /** Ties the runs' audit records together; each run adds its number. */
  runId: string;
  config: HostConfig;
  options: Pick<HostOptions, 'maxOutputTokens' | 'maxTurns' | 'maxParallelCalls' | 'stream'>;
  provider: () => Promise<LlmProvider>;
  prompts: ServerFeatureAccess['prompts'];
  skills: Pick<HostSkills, 'systemPrompt' | 'active'>;
  /** The tools offered for a turn to this run's model; the catalog changes only here. */
  toolsForTurn: (provider: LlmProvider) => Promise<ToolDefinition[]>;
  execute: ExecuteToolCall;
}

export function createRun(settings: RunSettings): (prompt: string, runOptions?: RunOptions) => Promise<RunResult> {
  const { config, options } = settings;
  const maxOutputTokens = options.maxOutputTokens ?? config.maxOutputTokens;
  let runCount = 0;
  return async (prompt, runOptions = {}) => {
    const model = runOptions.provider ?? (await settings.provider());
    runCount += 1;
    const opening = runOptions.prompt
      ? await settings.prompts.messages(runOptions.prompt, runOptions.prompt.arguments)
      : [];
    // With a server prompt, the text (if any) follows its messages; without one, the text is the user's turn.
    const userParts: UserPart[] = [
      ...(prompt !== '' || opening.length === 0 ? [{ type: 'text' as const, text: prompt }] : []),
      ...(runOptions.images ?? []),
    ];
    const added: Message[] = [
      ...opening,
      ...(userParts.length > 0 ? [{ role: 'user' as const, content: userParts }] : []),
    ];
    for (const message of added) runOptions.onMessage?.(message);
    const messages: Message[] = [...(runOptions.history ?? []), ...added];
    const thisRun = `${settings.runId}-${runCount}`;
    // Composed once per run: every turn of it sends the same bytes, so provider prompt caches hold.
    const systemText = settings.skills.systemPrompt().text;
    // Loaded on the first run: a host that only lists or calls tools never runs the loop.
    const { runAgent } = await import('../loop/run-agent.js');
    return runAgent({
      runId: thisRun,
      provider: model,
      tools: () => settings.toolsForTurn(model),
      executeToolCall: settings.execute,
      messages,
      ...(systemText === undefined ? {} : { system: systemText }),
      ...(maxOutputTokens === undefined ? {} : { maxOutputTokens }),
      maxTurns: options.maxTurns ?? config.maxTurns,
      maxParallelCalls: options.maxParallelCalls ?? config.maxParallelCalls,
      stream: options.stream ?? true,
      signal: runOptions.signal,
      emit: runOptions.onEvent ?? (() => undefined),
      ...(runOptions.onMessage ? { onMessage: runOptions.onMessage } : {}),
    }).finally(() => settings.skills.active.end(thisRun));
  };
}
