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
  const { found, turnNumber } = scenarioNow(script.scenarios, view);
  if (!found) return fallback;
  const { scenario, index, match } = found;
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
  // A made-up id is none the request holds nor one this answer gives: a compaction leaves fewer assistant turns, so
  // the turn's number could name a call still in the transcript, and a script's fixed id one made up beside it.
  const taken = new Set([...(view.callIds ?? []), ...(turn.toolCalls ?? []).flatMap((call) => call.id ?? [])]);
  const toolCalls = (turn.toolCalls ?? []).map((call, callIndex) => ({
    // Numbered by the conversation's turn, not the scenario's: ids stay unique across questions.
    id: call.id ?? unusedId(`call_${view.assistantTurns}_${callIndex}`, taken),
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

/** `wanted`, or when it is taken, `wanted` with the first number from 2 that makes it free; taken from then on. */
function unusedId(wanted: string, taken: Set<string>): string {
  let id = wanted;
  for (let suffix = 2; taken.has(id); suffix += 1) id = `${wanted}_${suffix}`;
  taken.add(id);
  return id;
}

/**
 * The scenario answering now and its turn: the first question's, carried on through the user's later messages
 * while it has turns left (a script may play a whole conversation), and for a question after it has played them
 * all, or after none matched, the one that question matches, its turns counted from it.
 */
function scenarioNow(
  scenarios: readonly ScriptScenario[],
  view: ConversationView,
): { found: ReturnType<typeof findScenario>; turnNumber: number } {
  const questions = view.userQuestions ?? [];
  let start = questions[0] ?? { text: view.firstUserText, assistantTurnsBefore: 0 };
  let found = findScenario(scenarios, start.text);
  for (const question of questions.slice(1)) {
    const played = question.assistantTurnsBefore - start.assistantTurnsBefore;
    if (found !== undefined && played < found.scenario.turns.length) continue;
    start = question;
    found = findScenario(scenarios, question.text);
  }
  return { found, turnNumber: view.assistantTurns - start.assistantTurnsBefore };
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
