/**
 * A conversation with the model: streaming text, each tool call as a card that opens the three translations of
 * that call — the tool definition as the provider got it, the `tools/call` request, the result as the provider
 * got it back.
 */
import { useState } from 'react';
import { postJson, useLiveEvents } from '../api';
import { JsonTree } from '../components/JsonTree';

type Event = { type: string; [key: string]: unknown };

interface ToolCard {
  callId: string;
  name: string;
  turn: number;
  request?: Event;
  end?: Event;
}

interface Turn {
  id: string;
  prompt: string;
  text: string;
  calls: ToolCard[];
  requests: Array<{ turn: number; body: unknown }>;
  done: boolean;
  error?: string;
  usage?: unknown;
}

/** The object in a provider's tool list that defines `name` (the wrapper too, where the provider has one). */
function findToolDefinition(body: unknown, name: string): unknown {
  let found: unknown;
  const walk = (value: unknown, parent: unknown): void => {
    if (found !== undefined || typeof value !== 'object' || value === null) return;
    const record = value as Record<string, unknown>;
    if (
      record.name === name &&
      ('description' in record || 'parameters' in record || 'input_schema' in record || 'inputSchema' in record)
    ) {
      found = parent !== undefined && (parent as Record<string, unknown>).type === 'function' ? parent : value;
      return;
    }
    for (const child of Object.values(record)) walk(child, value);
  };
  walk((body as Record<string, unknown>)?.tools ?? body, undefined);
  return found;
}

/** The message of a later request that carries the result of `callId` back to the model. */
function findToolResult(body: unknown, callId: string): unknown {
  const record = (body ?? {}) as Record<string, unknown>;
  const messages = (record.messages ?? record.input ?? record.contents) as unknown[] | undefined;
  if (!Array.isArray(messages)) return undefined;
  const carrying = messages.filter((message) => JSON.stringify(message).includes(JSON.stringify(callId)));
  return carrying[carrying.length - 1];
}

function Translations({ card, turn }: { card: ToolCard; turn: Turn }) {
  const sent = turn.requests.find((request) => request.turn === card.turn);
  const next = turn.requests.find((request) => request.turn === card.turn + 1);
  return (
    <div className="translations">
      <section>
        <h4>1. The tool as the provider got it</h4>
        <JsonTree
          value={sent === undefined ? '(not seen)' : (findToolDefinition(sent.body, card.name) ?? '(not found)')}
        />
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
                  params: { name: card.request.tool, arguments: card.request.arguments },
                }
          }
        />
      </section>
      <section>
        <h4>3. The result as the provider got it</h4>
        <JsonTree
          value={next === undefined ? '(no later request)' : (findToolResult(next.body, card.callId) ?? '(not found)')}
        />
      </section>
    </div>
  );
}

function Card({ card, turn }: { card: ToolCard; turn: Turn }) {
  const [open, setOpen] = useState(false);
  return (
    <article className="tool-card" aria-label={`Tool call ${card.name}`}>
      <header>
        <strong>{card.name}</strong>{' '}
        <span className="badge">{card.end === undefined ? 'running' : String(card.end.outcome)}</span>{' '}
        {card.end !== undefined && <span className="muted">{String(card.end.durationMs)} ms</span>}
      </header>
      <button type="button" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? 'Hide' : 'Show'} the three translations of {card.name}
      </button>
      {open && <Translations card={card} turn={turn} />}
    </article>
  );
}

export function ChatPage() {
  const [turns, setTurns] = useState<Turn[]>([]);
  const [text, setText] = useState('');
  const [error, setError] = useState<string>();
  const update = (id: string, change: (turn: Turn) => Turn) =>
    setTurns((old) => old.map((turn) => (turn.id === id ? change(turn) : turn)));
  useLiveEvents((live) => {
    if (live.type !== 'chat') return;
    const { turnId, event } = live.chat;
    update(turnId, (turn) => {
      switch (event.type) {
        case 'text-delta':
          return { ...turn, text: turn.text + String(event.text) };
        case 'provider-request':
          return { ...turn, requests: [...turn.requests, { turn: Number(event.turn), body: event.body }] };
        case 'tool-call-start':
          return {
            ...turn,
            calls: [
              ...turn.calls,
              { callId: String(event.callId), name: String(event.name), turn: Number(event.turn) },
            ],
          };
        case 'tool-call-request':
          return {
            ...turn,
            calls: turn.calls.map((call) => (call.callId === event.callId ? { ...call, request: event } : call)),
          };
        case 'tool-call-end':
          return {
            ...turn,
            calls: turn.calls.map((call) => (call.callId === event.callId ? { ...call, end: event } : call)),
          };
        case 'run-end':
          return { ...turn, text: String(event.text ?? turn.text), usage: event.usage };
        case 'run-error':
          return { ...turn, error: String(event.message) };
        case 'turn-done':
          return { ...turn, done: true };
        default:
          return turn;
      }
    });
  });
  const running = turns.some((turn) => !turn.done);
  const send = async () => {
    setError(undefined);
    const prompt = text;
    // The turn exists before its first event can arrive.
    const turnId = crypto.randomUUID();
    setTurns((old) => [...old, { id: turnId, prompt, text: '', calls: [], requests: [], done: false }]);
    try {
      await postJson<{ turnId: string }>('/api/chat', { text: prompt, turnId });
      setText('');
    } catch (failure) {
      setTurns((old) => old.filter((turn) => turn.id !== turnId));
      setError(failure instanceof Error ? failure.message : String(failure));
    }
  };
  return (
    <div className="chat">
      <ol className="turns" aria-live="polite">
        {turns.map((turn) => (
          <li key={turn.id} className="turn">
            <div className="user-message">
              <span className="visually-hidden">You: </span>
              {turn.prompt}
            </div>
            {turn.calls.map((card) => (
              <Card key={card.callId} card={card} turn={turn} />
            ))}
            <div className="assistant-message">
              <span className="visually-hidden">Model: </span>
              {turn.text}
            </div>
            {turn.error !== undefined && <p className="error">{turn.error}</p>}
            {turn.usage !== undefined && <p className="muted">Tokens: {JSON.stringify(turn.usage)}</p>}
          </li>
        ))}
      </ol>
      <form
        className="composer"
        onSubmit={(event) => {
          event.preventDefault();
          void send();
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
              void send();
            }
          }}
        />
        <div className="actions">
          <button type="submit" disabled={running || text.trim() === ''}>
            Send
          </button>
          {running && (
            <button type="button" onClick={() => void postJson('/api/chat/cancel')}>
              Stop
            </button>
          )}
        </div>
        {error !== undefined && <p className="error">{error}</p>}
      </form>
    </div>
  );
}
