/**
 * The script engine: given a script and what a request says about the conversation, decide the
 * next answer. It is a pure function of (script, request), so the scripted provider and every wire
 * of the mock LLM server answer alike, and concurrent conversations need no shared state.
 */
import { checkExpectation } from './check-expectation.js';
import { fillArguments, fillText, type PlaceholderValues } from './fill-placeholders.js';
import type { ConversationView, Script, ScriptAnswer, ScriptScenario } from './script-types.js';
import { searchDeferredTools } from './search-deferred-tools.js';

export const defaultFallbackText =
  'This is the scripted model: no scenario of its script matches this prompt, or the matching scenario has no ' +
  'turn left. Add a scenario whose "match" fits the prompt, or set "fallbackText".';

export function answerFromScript(script: Script, view: ConversationView): ScriptAnswer {
  const fallback: ScriptAnswer = { kind: 'turn', text: script.fallbackText ?? defaultFallbackText, toolCalls: [] };
  const found = findScenario(script.scenarios, view.firstUserText);
  if (!found) return fallback;
  const { scenario, index, match } = found;
  const turnNumber = view.assistantTurns;
  const turn = scenario.turns[turnNumber];
  if (!turn) return fallback;

  if (turn.expect) {
    const failure = checkExpectation(turn.expect, view);
    if (failure) {
      return {
        kind: 'error',
        status: 400,
        message: `Script expectation failed in ${describeScenario(scenario, index)}, turn ${turnNumber}: ${failure}`,
      };
    }
  }
  if (turn.error) return { kind: 'error', status: turn.error.status, message: turn.error.message };

  const values: PlaceholderValues = {
    match,
    lastToolResult: view.lastToolResults.map((result) => result.text).join('\n'),
  };
  const toolCalls = (turn.toolCalls ?? []).map((call, callIndex) => ({
    id: call.id ?? `call_${turnNumber}_${callIndex}`,
    name: call.name,
    arguments: fillArguments(call.arguments ?? {}, values) as Record<string, unknown>,
  }));
  const answer: ScriptAnswer & { kind: 'turn' } = { kind: 'turn', toolCalls };
  if (turn.text !== undefined) answer.text = fillText(turn.text, values);
  const where = `${describeScenario(scenario, index)}, turn ${turnNumber}`;
  if (turn.toolSearch !== undefined) {
    if (view.toolSearch !== true) {
      return {
        kind: 'error',
        status: 400,
        message: `${where} runs the provider's tool search, but the request offers none (no tool search tool among its tools).`,
      };
    }
    const query = fillText(turn.toolSearch.query, values);
    answer.toolSearch = { query, found: searchDeferredTools(view, query) };
  }
  if (turn.pauseTurn === true) {
    if (view.canPauseTurn !== true) {
      return {
        kind: 'error',
        status: 400,
        message: `${where} pauses the turn ("pauseTurn"), which only the Anthropic wire and the scripted provider can.`,
      };
    }
    answer.pauseTurn = true;
  }
  // A deferred tool is out of the model's reach until a search loaded it: the real API refuses such a call.
  const deferred = new Set((view.deferredTools ?? []).map((tool) => tool.name));
  const loaded = new Set([...(view.loadedTools ?? []), ...(answer.toolSearch?.found ?? [])]);
  const unreachable = toolCalls.find((call) => deferred.has(call.name) && !loaded.has(call.name));
  if (unreachable !== undefined) {
    return {
      kind: 'error',
      status: 400,
      message: `${where} calls the deferred tool "${unreachable.name}", which no tool search has loaded.`,
    };
  }
  return answer;
}

function findScenario(
  scenarios: readonly ScriptScenario[],
  firstUserText: string,
): { scenario: ScriptScenario; index: number; match: (string | undefined)[] } | undefined {
  for (const [index, scenario] of scenarios.entries()) {
    if (scenario.match === undefined) return { scenario, index, match: [firstUserText] };
    const result = new RegExp(scenario.match).exec(firstUserText);
    if (result) return { scenario, index, match: [...result] };
  }
  return undefined;
}

function describeScenario(scenario: ScriptScenario, index: number): string {
  return scenario.match === undefined
    ? `scenario ${index}`
    : `scenario ${index} (match ${JSON.stringify(scenario.match)})`;
}
