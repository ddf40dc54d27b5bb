/**
 * The web UI's one API, typed once for both sides: the server builds these shapes from the host, the browser
 * renders them. Self-contained on purpose (no imports), so the browser build reads it without the library.
 * Every string in here may come from a server or a model: the browser renders it as text.
 */

type HostPhase = 'starting' | 'ready' | 'failed';

export interface HostStateView {
  phase: HostPhase;
  /** Why the host could not start. */
  error?: string;
  configFile?: string;
  runId?: string;
  /** The model a chat turn uses, `provider:model`, when the config names one. */
  model?: string;
}

export interface ServerView {
  name: string;
  state: string;
  transport: string;
  trust: string;
  disabled: boolean;
  protocolVersion?: string;
  serverInfo?: { name: string; version: string };
  toolCount?: number;
  lastError?: string;
  stderrTail?: string;
  pid?: number;
  restarts?: number;
  capabilities?: Record<string, unknown>;
  instructions?: string;
  /** The level the server was last asked to log from (`logging/setLevel`), when it was asked in this UI. */
  logLevel?: string;
}

export interface ToolView {
  /** Namespaced, as the model sees it. */
  name: string;
  server: string;
  originalName: string;
  title?: string;
  description: string;
  annotations?: Record<string, unknown>;
  /** The server's trust, or `host` for the host's own tools. */
  trust: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  /** Estimated tokens this tool's definition costs in every request. */
  tokens: number;
  /** The tool's MCP Apps view (`_meta.ui.resourceUri`), when it has one. */
  viewUri?: string;
  /** `_meta.ui.visibility` names the app alone: the model is never offered this tool. */
  appOnly?: boolean;
}

export interface ToolsView {
  tools: ToolView[];
  servers: Array<{ name: string; tools: number; tokens: number }>;
  totalTokens: number;
}

/** One content block of a tool result, as the server sent it (bounded). */
export type ContentView =
  | { type: 'text'; text: string }
  | { type: 'image'; mimeType: string; data: string }
  | { type: 'audio'; mimeType: string; data: string }
  | { type: 'resource_link'; uri: string; name?: string; description?: string; mimeType?: string }
  | { type: 'resource'; uri: string; mimeType?: string; text?: string; blobBytes?: number }
  | { type: 'other'; json: string };

export interface CallResultView {
  outcome: string;
  isError: boolean;
  durationMs: number;
  content: ContentView[];
  structuredContent?: unknown;
  /** Problems validating structuredContent against the tool's outputSchema; empty when it conforms. */
  outputSchemaErrors?: string[];
  /** For a tool with a view: the result as the server sent it (bounded), which the view receives. */
  forView?: Record<string, unknown>;
  /**
   * What the call warned of as it went, each once, as `tools call` prints it: e.g. that it was sent once more after
   * its server went away, and how the server went.
   */
  warnings?: string[];
}

/** A tool call an MCP Apps view made: what the view receives, and what the call warned of, for the person alone. */
export interface ViewCallView {
  /** The result as the server sent it (bounded), or the host's refusal as an error result. */
  result: Record<string, unknown>;
  /** As `CallResultView.warnings`: shown beside the view, never passed into it. */
  warnings?: string[];
}

/** An MCP Apps view opened for one tool call: where its sandbox serves it, and what it was allowed. */
export interface AppViewInfo {
  viewId: string;
  /** The sandbox proxy's page on the sandbox origin (a second loopback port). */
  proxyUrl: string;
  sandboxOrigin: string;
  server: string;
  tool: string;
  resourceUri: string;
  /** SHA-256 of the view's HTML, as pinned. */
  sha256: string;
  /** The origins its Content-Security-Policy allows, by kind, and declared entries that were refused. */
  csp: { connect: string[]; resource: string[]; frame: string[]; baseUri: string[]; refused: string[] };
  /** Device permissions the view declared; none is granted. */
  permissionsDeclared: string[];
  prefersBorder: boolean;
  /** The server's tool definition (for the view's host context). */
  toolDefinition: Record<string, unknown>;
}

export interface OpenViewBody {
  /** The namespaced tool whose view to open. */
  tool: string;
}

export interface ViewCallBody {
  /** The tool's name as the view's server knows it. */
  name: string;
  arguments?: Record<string, unknown>;
}

export interface CallToolBody {
  name: string;
  arguments: Record<string, unknown>;
  /** Chosen by the browser, so progress events and a cancel can name the call. */
  callId?: string;
}

type ApprovalKind = 'tool-call' | 'tool-definition' | 'server' | 'sampling' | 'elicit-form' | 'elicit-url';

interface FormFieldView {
  name: string;
  label: string;
  description?: string;
  required: boolean;
  secret: boolean;
  kind: 'text' | 'number' | 'boolean' | 'choice' | 'multi-choice';
  choices?: Array<{ value: string; label: string }>;
  default?: unknown;
}

/** A question the host waits on. `view` is the text the terminal would show for it. */
export interface PendingApproval {
  id: string;
  kind: ApprovalKind;
  server: string;
  /** The namespaced tool, for calls and definitions. */
  tool?: string;
  /** Definitions: the tool's name as its server gives it (what the Trust page names it by). */
  originalTool?: string;
  title: string;
  /** The same facts the terminal prints, as plain text. */
  view: string;
  /**
   * Tool calls whose arguments `view` cuts: true, and `GET /api/approvals/:id/arguments` gives them whole (what the
   * terminal prints on `v`). Fetched on request, so arguments of any size never ride on every approvals event.
   */
  argumentsCut?: true;
  /** The answers this question accepts, in the order offered. */
  answers: Array<{ value: string; label: string }>;
  /** Definition approvals: the definition approved before and now, key-sorted JSON, for a side-by-side diff. */
  before?: string;
  after?: string;
  diff?: string;
  /** Form elicitation. */
  fields?: FormFieldView[];
  /** URL elicitation: the domain the URL really leads to. */
  domain?: string;
  url?: string;
  /**
   * The chat's turn that asked it, when one did: `POST /api/chat/stop` with this question's id refuses it and stops
   * that turn.
   */
  chatTurn?: string;
}

export interface ApprovalAnswerBody {
  answer: string;
  /** Form elicitation: the values, by field name. */
  content?: Record<string, string | number | boolean | string[]>;
}

interface TrustToolView {
  name: string;
  namespacedName?: string;
  status?: string;
  availability: string;
  withheldBecause?: string;
  storedState?: string;
  approvedBy?: string;
  approvedAt?: string;
  /** A revoked pin's former approval, kept apart so it never reads as approved. */
  wasApprovedBy?: string;
  wasApprovedAt?: string;
  hiddenContent: string[];
  /** Key-sorted JSON of the approved and the current definition, for a changed tool. */
  before?: string;
  after?: string;
  diff?: string;
}

export interface TrustServerView {
  name: string;
  trust?: string;
  status: string;
  approvedBy?: string;
  error?: string;
  tools: TrustToolView[];
}

export interface TrustChangeBody {
  server: string;
  /** The server's own tool name; absent for the whole server. */
  tool?: string;
}

export interface AuditEntryView {
  /**
   * The record's number in the order the host read it from the log, counting on when the log is rotated: what tells
   * two records apart, which may share a time.
   */
  sequence: number;
  type: string;
  time: string;
  runId: string;
  server?: string;
  tool?: string;
  decision?: string;
  outcome?: string;
  decidedBy?: string;
  reason?: string;
  durationMs?: number;
  change?: string;
  detail?: string;
  /** The whole record, as JSON text. */
  json: string;
}

export interface ServerLogView {
  /** Counts the messages of all servers since the UI started: what tells two apart, which may share a time. */
  sequence: number;
  server: string;
  time: string;
  level: string;
  logger?: string;
  text: string;
}

export interface ProgressView {
  callId: string;
  server: string;
  tool: string;
  progress: number;
  total?: number;
  message?: string;
}

export interface ResourceView {
  server: string;
  uri: string;
  name?: string;
  description?: string;
  mimeType?: string;
  /** The server accepts `resources/subscribe`. */
  subscribable?: boolean;
}

/** A resource template (RFC 6570 URI template); the browser fills in its variables. */
export interface ResourceTemplateView {
  server: string;
  uriTemplate: string;
  name?: string;
  description?: string;
  mimeType?: string;
  subscribable?: boolean;
}

/** `completion/complete` for a template's variable or a prompt's argument. */
export interface CompleteBody {
  server: string;
  /** One of the two. */
  uriTemplate?: string;
  prompt?: string;
  argument: string;
  value: string;
  /** The other variables or arguments filled in so far. */
  context?: Record<string, string>;
}

/** A resource this UI subscribed to, and how often the server said it changed since. */
export interface ResourceSubscriptionView {
  server: string;
  uri: string;
  updates: number;
  lastUpdated?: string;
}

export interface PromptView {
  server: string;
  name: string;
  description?: string;
  arguments: Array<{ name: string; description?: string; required: boolean }>;
}

export interface ChatBody {
  text: string;
  /** Chosen by the browser, so the page knows the turn before its first event. */
  turnId?: string;
}

export interface SessionSummaryView {
  id: string;
  title: string;
  model: string;
  updatedAt: string;
  /** The conversation the page is in now. */
  current: boolean;
}

/** `GET /api/sessions`: the saved conversations of this config, and the session files that could not be read. */
export interface SessionsView {
  /** The newest of them. */
  sessions: SessionSummaryView[];
  /** How many older ones are not listed. */
  omitted: number;
  /** Why each file was passed over (a newer version's, not a session file), naming it. */
  skipped: string[];
}

export interface ChatMessageView {
  role: 'user' | 'assistant' | 'tool' | 'tool-call';
  text: string;
  toolName?: string;
  isError?: boolean;
  /**
   * A call answered in the transcript: its number in the conversation (1 for the first; a turn's live events number
   * its calls after these) and the result it got, shown with it rather than as a message of its own.
   */
  number?: number;
  result?: { text: string; isError: boolean };
  /** What the call warned of as it went, each once, while the UI that ran it still holds the conversation. */
  warnings?: string[];
}

/** What the conversation cost so far, where its model's price is known (US dollars). */
export type CostView = { known: true; usd: number; source: 'config' | 'table'; pricesDate?: string } | { known: false };

export interface ChatSessionView {
  id: string;
  model: string;
  usage: { inputTokens: number; outputTokens: number; cachedInputTokens: number };
  cost: CostView;
  /** The latest messages of the transcript, as many as are sent at once. */
  messages: ChatMessageView[];
  /** How many earlier ones were left out (`mcp-host sessions show` shows them all). */
  omittedMessages: number;
  /** What the conversation said of its session: lines of its file skipped when it was read, a save that failed. */
  notes: string[];
}

/**
 * The conversation the server holds open, for a page that opens Chat after it was started (another tab, a reload,
 * a visit to another page): its messages before the turn that runs, and that turn, so the page can follow and stop it.
 */
export interface ChatStateView {
  session?: ChatSessionView;
  /** `messages`: what the turn did so far, its calls numbered as in the transcript. */
  running?: { turnId: string; prompt: string; messages: ChatMessageView[] };
}

/**
 * `GET /api/chat/running`: whether a chat turn runs and which, without the conversation (which may be megabytes), for
 * a page that needs only to know what a Stop would name.
 */
export type RunningTurnView = { running: true; turnId: string } | { running: false };

/**
 * The conversation the chat is in now, after a page opened one (new or resumed) or switched its model: every tab
 * follows the one conversation the server holds, so a tab that did not make the change shows it too.
 */
interface ChatSessionChangeView {
  id: string;
  model: string;
  /** What the conversation cost so far, priced by this model: a switch changes it. */
  cost: CostView;
}

/** One event of a chat turn, as the loop emitted it (JSON, bounded). */
interface ChatEventView {
  turnId: string;
  event: { type: string; [key: string]: unknown };
}

/** What the event stream (`/api/events`, server-sent events) carries; the SSE event name is `type`. */
export type LiveEvent =
  | { type: 'host'; state: HostStateView }
  | { type: 'audit'; entry: AuditEntryView }
  | { type: 'server-log'; entry: ServerLogView }
  | { type: 'progress'; progress: ProgressView }
  | { type: 'approvals'; pending: PendingApproval[] }
  | { type: 'catalog' }
  | { type: 'resource-updated'; subscription: ResourceSubscriptionView }
  | { type: 'chat'; chat: ChatEventView }
  | { type: 'chat-session'; session: ChatSessionChangeView }
  /** The saved sessions changed (one saved, changed or removed, by this UI or another process): list them again. */
  | { type: 'sessions' };

/** A skill, with its folder shown relative to the config's folder (or by name), never as a machine path. */
export interface SkillView {
  name: string;
  description: string;
  source: 'config' | 'project' | 'user';
  folder: string;
  /** Estimated tokens of its line in the system prompt, and of its body when loaded. */
  listingTokens: number;
  bodyTokens: number;
}

export interface SkillsView {
  offered: SkillView[];
  /**
   * `reason`: why, and how to review it; `reviewCommand`: that `mcp-host skills show` command alone, which prints the
   * command that approves what it shows. No approve command is given here: the page shows none of the skill's files.
   * Both are text to show.
   */
  withheld: (SkillView & { reason: string; reviewCommand: string })[];
  /** Skills that could not be read, and why. */
  problems: { folder: string; message: string }[];
  /** Skills the current chat conversation loaded (`load_skill` calls that succeeded), in order. */
  loaded: string[];
}

/** `GET /api/approvals/:id/arguments`: a pending call's arguments whole, plain text escaped as its view escapes them. */
export interface WholeArgumentsView {
  text: string;
}
