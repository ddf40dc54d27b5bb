/**
 * A conversation with the model: streaming text, each tool call as a card that opens the three translations of
 * that call — the tool definition as the provider got it, the `tools/call` request, the result as the provider
 * got it back.
 */
import { useEffect, useRef, useState } from 'react';
import { showDirectionControls } from '../../../src/text/direction-controls';
import type {
  ChatMessageView,
  ChatSessionView,
  ChatStateView,
  CostView,
  SessionsView,
  ToolsView,
} from '../../../src/web/api-types';
import { getJson, postJson, useJson, useLiveEvents, useReconnects } from '../api';
import { teardownViews } from '../app-views/live-views';
import { parsePartialArguments } from '../app-views/partial-json';
import { AppView } from '../components/AppView';
import { JsonTree } from '../components/JsonTree';
import { Notes } from '../components/Notes';
import { errorMessage } from '../error-message';
import { showName } from '../hidden-characters';
import { usePageReturn } from '../page-return';
import { callOfEvent } from './call-of-event';
import { capTurnWarnings, withWarning } from './call-warning-cap';
import { type ProviderRequest, resultAsReturned, toolAsSent } from './provider-translations';

type Event = { type: string; [key: string]: unknown };

/** The model answer a call event's call belongs to, when it says. */
function answerOf(event: Event): number | undefined {
  return typeof event.turn === 'number' ? event.turn : undefined;
}

/** A call event's place among the calls of its answer, when it says. */
function placeOf(event: Event): number | undefined {
  return typeof event.index === 'number' ? event.index : undefined;
}

interface ToolCard {
  /** Stays the same from the first streamed piece of the call's arguments to its end. */
  key: string;
  callId: string;
  name: string;
  turn: number;
  /** Its place among the calls of the answer that made it, from 0, once known (two may share an id). */
  index?: number;
  /** Its number in the conversation, once the model's answer making it is whole (the transcript keeps it). */
  number?: number;
  /**
   * A call the model streamed: its place among the turn's calls and the arguments' text so far (all of it once the
   * call started, until the call's input is sent after its approval).
   */
  streaming?: { index: number; argumentsText: string; started?: boolean };
  request?: Event;
  end?: Event;
  /** The call's arguments reached the page cut away, past the bound of an event: its view is told they will not come. */
  argumentsCut?: true;
  /** Translation 1, taken from the request of the call's answer as the card is made; undefined when not seen. */
  toolAsSent?: unknown;
  /** Translation 3, taken from the request after the call's answer as it arrives; undefined until then. */
  resultAsReturned?: unknown;
  /** What the host warned of during the call (sent once more, and how its server went), each once. */
  warnings?: string[];
  /** When the call was last warned of, counted in the tab: the least recent lose theirs first (call-warning-cap.ts). */
  warnedAt?: number;
}

interface Turn {
  id: string;
  prompt: string;
  text: string;
  calls: ToolCard[];
  /**
   * The first request to the provider of the latest model answer, while the turn runs: the cards of that answer take
   * their tool's definition from it, and the next one gives them their results (provider-translations.ts).
   */
  request?: ProviderRequest;
  done: boolean;
  error?: string;
  /**
   * A turn this page came to while it ran (a reload, another tab, a visit elsewhere): what it did before, as the
   * transcript had it then. Once it ends the page reads the transcript again, which holds the calls it missed.
   */
  joined?: ChatMessageView[];
  /** What the host said of the session during the turn (a save that failed). */
  notes?: string[];
  /**
   * What the host warned of during a call this page has no card of (one made before it came, shown with what the
   * turn did before), each once; a call on the page keeps its own.
   */
  warnings?: string[];
  /** When those were last warned of, as a call's `warnedAt`: they are bounded as one call's are. */
  warnedAt?: number;
  usage?: unknown;
}

/** What shows for a call's arguments that reached the page cut away, past the bound of an event. */
const ARGUMENTS_CUT = '(the arguments were too large to send to the page)';

/** Whether `event` reached the page cut to its short fields, past the bound of an event (chat-runner.ts). */
function isCut(event: Event): boolean {
  return typeof event.cut === 'string';
}

/** `card` with its tool's definition as the request of its answer sent it, when that request was seen. */
function withToolAsSent(card: ToolCard, request: ProviderRequest | undefined): ToolCard {
  const sent = toolAsSent(request, card);
  return sent === undefined ? card : { ...card, toolAsSent: sent };
}

function Translations({ card }: { card: ToolCard }) {
  return (
    <div className="translations">
      <section>
        <h4>1. The tool as the provider got it</h4>
        <JsonTree value={card.toolAsSent ?? '(not seen)'} />
      </section>
      <section>
        <h4>2. The tools/call request</h4>
        <JsonTree
          value={
            card.request === undefined
              ? '(not sent)'
              : {
                  method: 'tools/call',
                  server: card.request.server,
                  params: {
                    name: card.request.tool,
                    arguments: card.argumentsCut ? ARGUMENTS_CUT : card.request.arguments,
                  },
                }
          }
        />
      </section>
      <section>
        <h4>3. The result as the provider got it</h4>
        <JsonTree value={card.resultAsReturned ?? '(no later request)'} />
      </section>
    </div>
  );
}

function Card({ card, turn, hasView }: { card: ToolCard; turn: Turn; hasView: boolean }) {
  const [open, setOpen] = useState(false);
  const input = card.request?.arguments as Record<string, unknown> | undefined;
  const partialInput = card.streaming === undefined ? undefined : parsePartialArguments(card.streaming.argumentsText);
  const raw = card.end?.rawResult as Record<string, unknown> | undefined;
  // An end past the bound of an event comes without the server's result: the view is told it will not come.
  const resultCut = card.end?.outcome === 'ok' && raw === undefined && isCut(card.end);
  // A view is sent no result without its input (the extension's order): one whose input will not come is told so.
  const cancelled =
    card.end?.outcome === 'cancelled'
      ? 'the call was cancelled'
      : card.argumentsCut
        ? 'the arguments were too large to send to the page'
        : resultCut
          ? 'the result was too large to send to the page'
          : undefined;
  return (
    <article className="tool-card" aria-label={`Tool call ${showName(card.name)}${numberText(card.number)}`}>
      <header>
        {card.number !== undefined && <span className="call-number">[{card.number}] </span>}
        <strong>{showName(card.name)}</strong>{' '}
        <span className="badge">
          {card.end !== undefined
            ? String(card.end.outcome)
            : turn.done
              ? // The turn ended first (cancelled while the call was asked about): the transcript says so.
                'not finished'
              : card.streaming !== undefined && card.streaming.started !== true
                ? 'streaming'
                : 'running'}
        </span>{' '}
        {card.end !== undefined && <span className="muted">{String(card.end.durationMs)} ms</span>}
      </header>
      <button type="button" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? 'Hide' : 'Show'} the three translations of {showName(card.name)}
      </button>
      {open && <Translations card={card} />}
      {hasView && (card.end === undefined || card.end.outcome === 'ok' || card.end.outcome === 'cancelled') && (
        <AppView
          tool={card.name}
          {...(partialInput === undefined ? {} : { partialInput })}
          {...(input === undefined ? {} : { input })}
          {...(card.end?.outcome === 'ok' && raw !== undefined && card.argumentsCut !== true ? { result: raw } : {})}
          {...(cancelled === undefined ? {} : { cancelled })}
        />
      )}
      <Notes label="Warnings" notes={card.warnings ?? []} className="notes warnings" />
    </article>
  );
}

/** How a call's number follows its name where the name says which call it is. */
function numberText(number: number | undefined): string {
  return number === undefined ? '' : ` [${number}]`;
}

function SessionsList({ listed, onOpen }: { listed: SessionsView | undefined; onOpen: (id?: string) => void }) {
  const sessions = listed?.sessions ?? [];
  return (
    <aside aria-label="Conversations">
      <button type="button" onClick={() => onOpen()}>
        New conversation
      </button>
      <ul className="tool-list">
        {sessions.map((session) => (
          <li key={session.id}>
            <button type="button" aria-pressed={session.current} onClick={() => onOpen(session.id)}>
              <span>{showDirectionControls(session.title || session.id)}</span>{' '}
              <span className="muted no-wrap">{new Date(session.updatedAt).toLocaleString()}</span>
            </button>
          </li>
        ))}
      </ul>
      {sessions.length === 0 && <p className="muted">No saved conversations for this config yet.</p>}
      {(listed?.omitted ?? 0) > 0 && (
        <p className="muted">
          {listed?.omitted} older conversation(s) are not listed here; mcp-host sessions list lists them all.
        </p>
      )}
      <Notes label="Session files passed over" notes={listed?.skipped ?? []} />
    </aside>
  );
}

/** A call of the saved transcript, with the result it got: what was saved of it (not how long it took). */
function EarlierCall({ message }: { message: ChatMessageView }) {
  const name = showName(message.toolName ?? '');
  return (
    <article aria-label={`Tool call ${name}${numberText(message.number)}`}>
      <header>
        {message.number !== undefined && <span className="call-number">[{message.number}] </span>}
        <strong>{name}</strong> <span className="visually-hidden">arguments: </span>
        {showDirectionControls(message.text)}
      </header>
      {message.result !== undefined && (
        <p className="call-result">
          <span className="badge">{message.result.isError ? 'error' : 'result'}</span>{' '}
          {showDirectionControls(message.result.text)}
        </p>
      )}
      <Notes label="Warnings" notes={message.warnings ?? []} className="notes warnings" />
    </article>
  );
}

function EarlierMessages({ messages, label }: { messages: ChatMessageView[]; label: string }) {
  return (
    <ol className="turns" aria-label={label}>
      {messages.map((message, index) => (
        <li
          // biome-ignore lint/suspicious/noArrayIndexKey: transcript messages are known by their place.
          key={index}
          className={
            message.role === 'user' ? 'user-message' : message.role === 'assistant' ? 'assistant-message' : 'tool-card'
          }
        >
          {message.role === 'tool-call' ? (
            <EarlierCall message={message} />
          ) : (
            <>
              {/* The space follows the badge only: the text is shown as written (pre-wrap), so a space before it stands out. */}
              {message.role === 'tool' && (
                <>
                  <span className="badge">{message.isError ? 'error' : 'result'}</span>{' '}
                </>
              )}
              <span className="visually-hidden">{message.role}: </span>
              {showDirectionControls(message.text)}
            </>
          )}
        </li>
      ))}
    </ol>
  );
}

/** Dollars to the cent, or finer below a cent, and where the price came from; never a guess. */
function costText(cost: CostView | undefined): string {
  if (cost === undefined || !cost.known) return 'cost: price unknown';
  const amount = cost.usd >= 0.01 ? cost.usd.toFixed(2) : cost.usd.toPrecision(2);
  const from = cost.source === 'config' ? 'price from the config' : `list price of ${cost.pricesDate ?? 'the table'}`;
  return `cost $${amount} (${from})`;
}

export function ChatPage() {
  const [turns, setTurns] = useState<Turn[]>([]);
  const [text, setText] = useState('');
  const [error, setError] = useState<string>();
  const [session, setSession] = useState<ChatSessionView>();
  const [modelText, setModelText] = useState('');
  const [tick, setTick] = useState(0);
  const sessions = useJson<SessionsView>('/api/sessions', tick);
  // A terminal chat saves its sessions in another process: the UI looks at the folder and tells the page of a change
  // (read at once while the page is in view), and the list is read again when the person comes back to the page.
  usePageReturn(() => setTick((value) => value + 1));
  const tools = useJson<ToolsView>('/api/tools');
  const withViews = new Set(
    (tools.data?.tools ?? []).filter((tool) => tool.viewUri !== undefined).map((tool) => tool.name),
  );
  // The turns as last rendered, for the event handler to look up.
  const turnsShown = useRef(turns);
  turnsShown.current = turns;
  // Counts the warnings the page keeps with its calls, to tell which call was warned of last.
  const warningsKept = useRef(0);
  const update = (id: string, change: (turn: Turn) => Turn) =>
    setTurns((old) => old.map((turn) => (turn.id === id ? change(turn) : turn)));
  // Turns seen to end while this page is open: one the server still reported running is not taken up after it ended.
  const ended = useRef(new Set<string>());
  const reconnects = useReconnects();
  // Each change to the server's conversation (open one, switch its model, send a message) is sent once the one
  // before it is answered: the server applies them, and the page shows their answers, in the order the person made
  // them, so a late answer never undoes a later choice.
  const changes = useRef(Promise.resolve());
  // The conversation this page shows, known at once (not at the next render) to the reads below.
  const shownId = useRef<string | undefined>(undefined);
  const show = (view: ChatSessionView) => {
    shownId.current = view.id;
    setSession(view);
  };
  // Times another tab opened another conversation: the server holds one for every tab, so this one shows it too.
  const [followed, setFollowed] = useState(0);
  // The conversation the server holds (this page may open while a turn of it runs: another tab, a reload, a visit
  // elsewhere): its messages, and the running turn, followed from here on and stoppable. When the event stream
  // reconnected, events of this conversation may have passed the page by: the server's transcript then stands for
  // the turns that ended, and only the running one is followed on; so too when another tab opened another
  // conversation. It is read in line with the changes, so a message being sent reaches the server first and its turn
  // is in what is read, not dropped as one the server never had.
  const readServerChat = (reason: 'opened' | 'reconnected' | 'followed') => {
    let live = true;
    const read = changes.current.then(() => getJson<ChatStateView>('/api/chat'));
    changes.current = read.then(
      async (state) => {
        if (!live) return;
        const running = state.running;
        if (reason === 'followed') {
          // This page's own opening of it may have answered since: it shows that conversation already.
          if (state.session?.id === shownId.current) return;
          // As when this tab opens another: the views of the one left are told they go.
          await teardownViews();
          if (!live) return;
        }
        if (reason !== 'opened') {
          if (state.session !== undefined) show(state.session);
          setTurns((old) => old.filter((turn) => turn.id === running?.turnId));
        } else if (state.session !== undefined && shownId.current === undefined) {
          show(state.session);
        }
        if (running === undefined || ended.current.has(running.turnId)) return;
        const joined: Turn = {
          id: running.turnId,
          prompt: running.prompt,
          text: '',
          calls: [],
          done: false,
          joined: running.messages,
        };
        // After a reconnection the page's own copy of the running turn may lack what passed it by (a call made, its
        // end): it is followed on as a turn the page came to, whose transcript is read again when it ends.
        setTurns((old) =>
          !old.some((turn) => turn.id === running.turnId)
            ? [...old, joined]
            : reason === 'opened'
              ? old
              : old.map((turn) => (turn.id === running.turnId ? joined : turn)),
        );
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: reconnects exists to trigger a read.
  useEffect(() => readServerChat(reconnects > 0 ? 'reconnected' : 'opened'), [reconnects]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: followed exists to trigger a read.
  useEffect(() => (followed > 0 ? readServerChat('followed') : undefined), [followed]);
  // Turns this page came to while they ran, since ended: the transcript holds what the page missed of them.
  const [joinedEnded, setJoinedEnded] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: joinedEnded exists to trigger a read.
  useEffect(() => (joinedEnded > 0 ? readServerChat('reconnected') : undefined), [joinedEnded]);
  useLiveEvents((live) => {
    if (live.type === 'sessions') {
      // A hidden page reads it when it is shown again.
      if (document.visibilityState === 'visible') setTick((value) => value + 1);
      return;
    }
    if (live.type === 'chat-session') {
      // The cost too: it is priced by the model.
      const { id, model, cost } = live.session;
      if (id === shownId.current) setSession((old) => (old === undefined ? old : { ...old, model, cost }));
      else setFollowed((value) => value + 1);
      // The list marks the conversation in use, and one just started may be new to it.
      setTick((value) => value + 1);
      return;
    }
    if (live.type !== 'chat') return;
    const { turnId, event } = live.chat;
    // A message another tab sent: this tab follows its turn too (the one that sent it has the turn already).
    if (event.type === 'message-sent' && !ended.current.has(turnId)) {
      const prompt = String(event.prompt);
      setTurns((old) =>
        old.some((turn) => turn.id === turnId)
          ? old
          : [...old, { id: turnId, prompt, text: '', calls: [], done: false }],
      );
    }
    if (event.type === 'turn-done') {
      ended.current.add(turnId);
      if (turnsShown.current.some((turn) => turn.id === turnId && turn.joined !== undefined)) {
        setJoinedEnded((value) => value + 1);
      }
      shownId.current = String(event.sessionId);
      setSession((old) => ({
        id: String(event.sessionId),
        model: String(event.model),
        usage: event.usage as ChatSessionView['usage'],
        cost: event.cost as ChatSessionView['cost'],
        messages: old?.messages ?? [],
        omittedMessages: old?.omittedMessages ?? 0,
        notes: old?.notes ?? [],
      }));
      setTick((value) => value + 1);
    }
    update(turnId, (turn) => {
      switch (event.type) {
        case 'text-delta':
          return { ...turn, text: turn.text + String(event.text) };
        case 'provider-request': {
          // One past the bound of an event comes as its start in text, without the body the translations read.
          const request: ProviderRequest = {
            turn: Number(event.turn),
            body: event.body,
            ...(typeof event.cut === 'string' ? { cut: true } : {}),
          };
          // The first of an answer's requests is the one its calls were offered in and its results carried back in.
          if (turn.request?.turn === request.turn) return turn;
          return {
            ...turn,
            request,
            calls: turn.calls.map((call) => {
              const returned = call.resultAsReturned ?? resultAsReturned(request, call);
              return returned === call.resultAsReturned ? call : { ...call, resultAsReturned: returned };
            }),
          };
        }
        case 'tool-call-delta': {
          const index = Number(event.index);
          const streaming = turn.calls.find(
            (call) => call.turn === Number(event.turn) && call.streaming?.index === index,
          );
          if (streaming?.streaming?.started === true) return turn;
          if (streaming?.streaming !== undefined) {
            const argumentsText = streaming.streaming.argumentsText + String(event.argumentsDelta);
            return {
              ...turn,
              calls: turn.calls.map((call) =>
                call === streaming ? { ...call, streaming: { index, argumentsText } } : call,
              ),
            };
          }
          const key = `streaming:${String(event.turn)}:${index}`;
          const card: ToolCard = {
            key,
            callId: key,
            name: String(event.name),
            turn: Number(event.turn),
            index,
            streaming: { index, argumentsText: String(event.argumentsDelta) },
          };
          return { ...turn, calls: [...turn.calls, withToolAsSent(card, turn.request)] };
        }
        case 'tool-call-start': {
          // The call the model streamed, if it did: the first of this turn's still streaming with the same name.
          const index = placeOf(event);
          const streamed = turn.calls.find(
            (call) =>
              call.turn === Number(event.turn) &&
              call.streaming !== undefined &&
              call.streaming.started !== true &&
              call.name === event.name &&
              (index === undefined || call.streaming.index === index),
          );
          const number = typeof event.number === 'number' ? { number: event.number } : {};
          const place = index === undefined ? {} : { index };
          if (streamed?.streaming !== undefined) {
            // Cut past the bound of an event, the start comes without the arguments: what streamed stands.
            const argumentsText =
              typeof event.argumentsText === 'string' ? event.argumentsText : streamed.streaming.argumentsText;
            const streaming = { ...streamed.streaming, argumentsText, started: true };
            return {
              ...turn,
              calls: turn.calls.map((call) =>
                call === streamed ? { ...call, ...number, ...place, callId: String(event.callId), streaming } : call,
              ),
            };
          }
          return {
            ...turn,
            calls: [
              ...turn.calls,
              withToolAsSent(
                {
                  // Its place among the turn's cards: a model may repeat a call id across its answers.
                  key: `call:${turn.calls.length}`,
                  callId: String(event.callId),
                  name: String(event.name),
                  turn: Number(event.turn),
                  ...number,
                  ...place,
                },
                turn.request,
              ),
            ],
          };
        }
        case 'tool-call-request': {
          // Of the answer it names (the latest with that id when it does not).
          const at = callOfEvent(turn.calls, String(event.callId), answerOf(event), placeOf(event));
          // Cut past the bound of an event, it comes without the arguments.
          const cut = isCut(event) && typeof event.arguments !== 'object' ? { argumentsCut: true as const } : {};
          return {
            ...turn,
            calls: turn.calls.map((call, index) => (index === at ? { ...call, request: event, ...cut } : call)),
          };
        }
        case 'tool-call-end': {
          const at = callOfEvent(turn.calls, String(event.callId), Number(event.turn), placeOf(event));
          return {
            ...turn,
            calls: turn.calls.map((call, index) => (index === at ? { ...call, end: event } : call)),
          };
        }
        case 'run-end':
          return { ...turn, text: String(event.text ?? turn.text), usage: event.usage };
        case 'session-note':
          return { ...turn, notes: [...(turn.notes ?? []), String(event.message)] };
        case 'tool-call-warning': {
          // Beside the call it belongs to, each once, as a page that comes later is sent it: the call of the answer
          // it names (of the latest with that id when it does not), as a model may repeat its ids across answers.
          const message = String(event.message);
          const call = turn.calls[callOfEvent(turn.calls, String(event.callId), answerOf(event), placeOf(event))];
          const warnedAt = warningsKept.current + 1;
          if (call === undefined) {
            const warned = withWarning(turn, message, warnedAt);
            if (warned !== turn) warningsKept.current = warnedAt;
            return warned;
          }
          const warned = withWarning(call, message, warnedAt);
          if (warned === call) return turn;
          warningsKept.current = warnedAt;
          return { ...turn, calls: turn.calls.map((candidate) => (candidate === call ? warned : candidate)) };
        }
        case 'run-error':
          return { ...turn, error: String(event.message) };
        case 'turn-done': {
          // No later request comes to take anything from.
          const { request: _ended, ...ended } = turn;
          return { ...ended, done: true };
        }
        default:
          return turn;
      }
    });
    // Across the tab, as the server across a conversation: the least recently warned calls' warnings go first.
    if (event.type === 'tool-call-warning') setTurns(capTurnWarnings);
  });
  // The turn this page shows running, the latest: its Stop stops that turn only, never one another tab started since.
  const runningTurn = turns.findLast((turn) => !turn.done);
  const running = runningTurn !== undefined;
  // What Stop answered when the turn this page showed had ended: another tab may have started one since, not stopped.
  const [stopMissed, setStopMissed] = useState(false);
  const act = async (work: () => Promise<void>) => {
    setError(undefined);
    try {
      await work();
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };
  const inOrder = (work: () => Promise<void>): Promise<void> => {
    const next = changes.current.then(() => act(work));
    changes.current = next;
    return next;
  };
  const open = (id?: string) =>
    void inOrder(async () => {
      const opened = await postJson<ChatSessionView>(
        id === undefined ? '/api/sessions/new' : '/api/sessions/resume',
        id === undefined ? {} : { id },
      );
      await teardownViews();
      show(opened);
      setTurns([]);
      setTick((value) => value + 1);
    });
  const switchModel = (model: string) =>
    void inOrder(async () => {
      show(await postJson<ChatSessionView>('/api/chat/model', { model }));
      setModelText((typed) => (typed === model ? '' : typed));
    });
  // From Send (or Enter) until the server has the message: a second press meanwhile is the same message, not another.
  const sending = useRef(false);
  const [waitingToSend, setWaitingToSend] = useState(false);
  const send = () => {
    const prompt = text;
    if (running || sending.current || prompt.trim() === '') return;
    setStopMissed(false);
    sending.current = true;
    setWaitingToSend(true);
    void inOrder(async () => {
      // The turn exists before its first event can arrive.
      const turnId = crypto.randomUUID();
      setTurns((old) => [...old, { id: turnId, prompt, text: '', calls: [], done: false }]);
      try {
        await postJson<{ turnId: string }>('/api/chat', { text: prompt, turnId });
        setText((typed) => (typed === prompt ? '' : typed));
      } catch (failure) {
        setTurns((old) => old.filter((turn) => turn.id !== turnId));
        throw failure;
      }
    }).finally(() => {
      sending.current = false;
      setWaitingToSend(false);
    });
  };
  const stop = () => {
    if (runningTurn === undefined) return;
    const turnId = runningTurn.id;
    setStopMissed(false);
    void act(async () => {
      const { cancelled } = await postJson<{ cancelled: boolean }>('/api/chat/cancel', { turnId });
      setStopMissed(!cancelled);
    });
  };
  return (
    <div className="split">
      <SessionsList listed={sessions.data} onOpen={open} />
      <div className="chat">
        <div className="chat-status" role="status">
          {session === undefined
            ? 'A new conversation starts with your first message.'
            : `Session ${session.id} · ${showDirectionControls(session.model)} · tokens in ${session.usage.inputTokens} (cached ${session.usage.cachedInputTokens}) · out ${session.usage.outputTokens} · ${costText(session.cost)}`}
        </div>
        <form
          className="actions"
          aria-label="Model"
          onSubmit={(event) => {
            event.preventDefault();
            switchModel(modelText);
          }}
        >
          <label htmlFor="chat-model">Switch model</label>
          <input
            id="chat-model"
            placeholder="provider:model"
            value={modelText}
            onChange={(event) => setModelText(event.target.value)}
          />
          <button type="submit" disabled={running || modelText.trim() === ''}>
            Use this model
          </button>
        </form>
        <Notes label="Notes on the session" notes={session?.notes ?? []} />
        {session !== undefined && session.omittedMessages > 0 && (
          <p className="muted">
            {session.omittedMessages} earlier message(s) are not shown here; mcp-host sessions show {session.id} shows
            the whole transcript.
          </p>
        )}
        {session !== undefined && session.messages.length > 0 && (
          <EarlierMessages messages={session.messages} label="Earlier messages" />
        )}
        <ol className="turns" aria-live="polite">
          {turns.map((turn) => (
            <li key={turn.id} className="turn">
              <div className="user-message">
                <span className="visually-hidden">You: </span>
                {turn.prompt}
              </div>
              {turn.joined !== undefined && turn.joined.length > 0 && (
                <EarlierMessages messages={turn.joined} label="What the turn did before this page came" />
              )}
              <Notes label="Warnings" notes={turn.warnings ?? []} className="notes warnings" />
              {turn.calls.map((card) => (
                <Card key={card.key} card={card} turn={turn} hasView={withViews.has(card.name)} />
              ))}
              <div className="assistant-message">
                <span className="visually-hidden">Model: </span>
                {showDirectionControls(turn.text)}
              </div>
              {turn.error !== undefined && <p className="error">{showDirectionControls(turn.error)}</p>}
              <Notes label="Notes on the session" notes={turn.notes ?? []} />
            </li>
          ))}
        </ol>
        <form
          className="composer"
          onSubmit={(event) => {
            event.preventDefault();
            send();
          }}
        >
          <label htmlFor="chat-input">Message</label>
          <textarea
            id="chat-input"
            rows={3}
            value={text}
            onChange={(event) => setText(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && !event.shiftKey) {
                event.preventDefault();
                send();
              }
            }}
          />
          <div className="actions">
            <button type="submit" disabled={running || waitingToSend || text.trim() === ''}>
              Send
            </button>
            {running && (
              <button type="button" onClick={stop}>
                Stop
              </button>
            )}
          </div>
          <p role="status">{stopMissed ? 'The turn you stopped had ended already; nothing else was stopped.' : ''}</p>
          {error !== undefined && (
            <p className="error" role="alert">
              {showDirectionControls(error)}
            </p>
          )}
        </form>
      </div>
    </div>
  );
}
