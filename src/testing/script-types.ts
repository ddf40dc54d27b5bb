/**
 * The script format shared by the in-process scripted provider (`scripted:PATH`) and the mock LLM
 * HTTP server (`mcp-host mock-llm --script PATH`). A script is data, so users can write their own.
 *
 * Which turn comes next is derived from the conversation itself (the user's questions and the assistant turns
 * already in the request), so one script serves many concurrent conversations and needs no state.
 */

export interface ScriptToolCall {
  name: string;
  /**
   * Arguments to send. Strings may hold `{{match.N}}`, replaced by capture group N of the scenario's
   * `match` against the first user message; a value that is exactly one placeholder and looks like
   * a number becomes a number.
   */
  arguments?: Record<string, unknown>;
  /** Optional fixed call id; otherwise one is made up. */
  id?: string;
}

export interface ScriptExpectation {
  /** Tool names that must be offered in the request. */
  toolsInclude?: string[];
  /** Text that the most recent tool results must contain (all results of the last turn, joined). */
  lastToolResultIncludes?: string;
  /** Whether the most recent tool results must (not) carry the error flag. */
  lastToolResultIsError?: boolean;
}

export interface ScriptTurn {
  /** Checked against the request before answering; a failed check is answered with HTTP 400 / an error. */
  expect?: ScriptExpectation;
  /**
   * Text to answer with. `{{lastToolResult}}` is replaced by the text of the most recent tool
   * results, so a scripted answer reports what the tool really returned.
   */
  text?: string;
  toolCalls?: ScriptToolCall[];
  /**
   * The model first runs the provider's own tool search with this query (Anthropic's tool search, OpenAI's hosted
   * `tool_search`), before its text and calls: the mock searches the request's deferred tools, answers with the
   * search blocks or items of its wire, and the calls that follow may use what it found. A request that offers no
   * native tool search is answered with an error.
   */
  toolSearch?: { query: string };
  /**
   * The provider pauses this turn (Anthropic's `pause_turn`: a server tool ran long): the answer's text and tool
   * search come back with that stop reason, and the next turn of the script answers the request that sends the
   * paused answer back. No `toolCalls` in a paused turn; only the Anthropic wire and the scripted provider pause.
   */
  pauseTurn?: boolean;
  /** Answer with a provider error instead (e.g. 429, 500, 529). */
  error?: { status: number; message: string };
}

export interface ScriptScenario {
  /**
   * A regular expression tested against the first user message, and against each later one that comes once the
   * scenario answering the one before has played all its turns; omitted = matches anything.
   */
  match?: string;
  turns: ScriptTurn[];
}

export interface Script {
  /** Shown when no scenario matches the prompt, or the scenario has run out of turns. */
  fallbackText?: string;
  scenarios: ScriptScenario[];
}

/** A message of the user's own (not tool results), and how many assistant turns came before it. */
export interface UserQuestion {
  text: string;
  assistantTurnsBefore: number;
}

/** What the script engine needs to know about a request, whichever wire format it came in. */
export interface ConversationView {
  model: string;
  stream: boolean;
  toolNames: string[];
  firstUserText: string;
  /** Assistant turns already in the conversation. */
  assistantTurns: number;
  /** The ids of the tool calls the request holds: a made-up id is none of them. */
  callIds?: string[];
  /**
   * The user's messages with text, in order. A scenario answers the question it matched and the messages after it
   * while it has turns left; a question after a scenario that has played all its turns (or that none matched) is
   * matched anew, its turns counted from it. Without it, the first user text is the only question.
   */
  userQuestions?: UserQuestion[];
  /** Results of the most recent tool turn, in call order. */
  lastToolResults: { text: string; isError: boolean }[];
  /** The request offers the provider's own tool search (its search tool is among the tools). */
  toolSearch?: boolean;
  /** Tools sent with `defer_loading`, as the provider's search sees them; `definition` is the tool as sent. */
  deferredTools?: { name: string; description: string; definition: unknown }[];
  /** Deferred tools that a tool search earlier in the conversation loaded: the model may call them. */
  loadedTools?: string[];
  /** The wire can answer with a paused turn (a script's `pauseTurn`). */
  canPauseTurn?: boolean;
}

/** What the engine decided to answer. Wires render it in their provider's format. */
export type ScriptAnswer =
  | {
      kind: 'turn';
      text?: string;
      toolCalls: { id: string; name: string; arguments: Record<string, unknown> }[];
      /** The provider's tool search ran first: its query and the deferred tools it found, best first. */
      toolSearch?: { query: string; found: string[] };
      /** The provider paused the turn: its stop reason says so, and the conversation comes back to continue it. */
      pauseTurn?: boolean;
    }
  | { kind: 'error'; status: number; message: string };
