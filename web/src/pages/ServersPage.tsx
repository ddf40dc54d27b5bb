/** Each server: state, transport, protocol, capabilities, instructions, stderr tail and its log messages, live. */
import { useEffect, useId, useState } from 'react';
import { showDirectionControls } from '../../../src/text/direction-controls';
import type { ServerLogView, ServerView } from '../../../src/web/api-types';
import { getJson, postJson, useJson, useLiveEvents, useReconnects } from '../api';
import { JsonTree } from '../components/JsonTree';
import { errorMessage } from '../error-message';
import { showName } from '../hidden-characters';

const LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];
interface ControlAnswer {
  state: string;
  lastError?: string;
}
/** Log messages kept per page view (the server keeps the latest 1,000 for the next visit). */
const MAX_LOG_LINES = 500;

function ServerCard({ server, logs, onChanged }: { server: ServerView; logs: ServerLogView[]; onChanged: () => void }) {
  const [minimum, setMinimum] = useState('debug');
  const [asked, setAsked] = useState(server.logLevel ?? 'info');
  const [note, setNote] = useState<string>();
  const shown = logs.filter((entry) => LEVELS.indexOf(entry.level) >= LEVELS.indexOf(minimum));
  const act = async (what: () => Promise<string>) => {
    try {
      setNote(await what());
    } catch (error) {
      setNote(errorMessage(error));
    }
  };
  // Ids of the UI's own: a server's name may hold spaces, which split an id reference.
  const id = useId();
  const headingId = `${id}-heading`;
  const levelId = `${id}-level`;
  const askId = `${id}-ask-level`;
  const path = `/api/servers/${encodeURIComponent(server.name)}`;
  return (
    <section className="card" aria-labelledby={headingId}>
      <h2 id={headingId}>
        {showName(server.name)}{' '}
        <span className={`badge state-${server.state}`}>{server.disabled ? 'disabled' : server.state}</span>
      </h2>
      <dl className="facts">
        <dt>Transport</dt>
        <dd>{server.transport}</dd>
        <dt>Trust</dt>
        <dd>{server.trust}</dd>
        <dt>Protocol version</dt>
        <dd>{server.protocolVersion ?? '—'}</dd>
        <dt>Server</dt>
        <dd>
          {server.serverInfo === undefined
            ? '—'
            : `${showName(server.serverInfo.name)} ${showDirectionControls(server.serverInfo.version)}`}
        </dd>
        <dt>Tools</dt>
        <dd>{server.toolCount ?? '—'}</dd>
        {server.pid !== undefined && (
          <>
            <dt>Process</dt>
            <dd>{server.pid}</dd>
          </>
        )}
        {server.restarts !== undefined && (
          <>
            <dt>Restarts</dt>
            <dd>{server.restarts}</dd>
          </>
        )}
        {server.lastError !== undefined && (
          <>
            <dt>Last error</dt>
            <dd className="error">{showDirectionControls(server.lastError)}</dd>
          </>
        )}
      </dl>
      <div className="actions">
        {server.state === 'connected' && (
          <button
            type="button"
            onClick={() =>
              void act(async () => {
                const { ms } = await postJson<{ ms: number }>(`${path}/ping`);
                return `Ping answered in ${ms} ms.`;
              })
            }
          >
            Ping {showName(server.name)}
          </button>
        )}
        {!server.disabled && (
          <button
            type="button"
            onClick={() =>
              void act(async () => {
                setNote(`Restarting ${showName(server.name)}…`);
                const { state, lastError } = await postJson<ControlAnswer>(`${path}/restart`);
                return `Restarted: ${state}${lastError === undefined ? '' : ` (${lastError})`}.`;
              })
            }
          >
            Restart {showName(server.name)}
          </button>
        )}
        <button
          type="button"
          onClick={() =>
            void act(async () => {
              const action = server.disabled ? 'enable' : 'disable';
              const { state, lastError } = await postJson<ControlAnswer>(`${path}/${action}`);
              return server.disabled
                ? `Enabled for this session: ${state}${lastError === undefined ? '' : ` (${lastError})`}.`
                : 'Disabled for this session: its tools are not offered (the config file is unchanged).';
            })
          }
        >
          {server.disabled ? 'Enable' : 'Disable'} {showName(server.name)}
        </button>
        {note !== undefined && <span role="status">{showDirectionControls(note)}</span>}
      </div>
      {server.capabilities !== undefined && (
        <details>
          <summary>Capabilities</summary>
          <JsonTree value={server.capabilities} />
        </details>
      )}
      {server.instructions !== undefined && (
        <details>
          <summary>Instructions</summary>
          <pre className="text-block">{showDirectionControls(server.instructions)}</pre>
        </details>
      )}
      {server.stderrTail !== undefined && server.stderrTail !== '' && (
        <details>
          <summary>Standard error (last lines)</summary>
          <pre className="text-block">{showDirectionControls(server.stderrTail)}</pre>
        </details>
      )}
      {server.capabilities?.logging !== undefined && (
        <div className="actions">
          <label htmlFor={askId}>Server sends from</label>
          <select id={askId} value={asked} onChange={(event) => setAsked(event.target.value)}>
            {LEVELS.map((level) => (
              <option key={level}>{level}</option>
            ))}
          </select>
          <button
            type="button"
            onClick={() =>
              void act(async () => {
                await postJson(`${path}/log-level`, { level: asked });
                onChanged();
                return `Asked ${showName(server.name)} to send ${asked} and above (logging/setLevel).`;
              })
            }
          >
            Set the level of {showName(server.name)}
          </button>
          <span className="muted">
            {server.logLevel === undefined ? 'level not set (the server’s default)' : `set to ${server.logLevel}`}
          </span>
        </div>
      )}
      <details open={logs.length > 0}>
        <summary>Log messages ({logs.length})</summary>
        <div className="actions">
          <label htmlFor={levelId}>Show from level</label>
          <select id={levelId} value={minimum} onChange={(event) => setMinimum(event.target.value)}>
            {LEVELS.map((level) => (
              <option key={level}>{level}</option>
            ))}
          </select>
        </div>
        <ol className="log">
          {shown.map((entry, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: log lines are known by their place.
            <li key={index} className={`log-${entry.level}`}>
              <time>{entry.time.slice(11, 23)}</time> <span className="badge">{entry.level}</span>{' '}
              {entry.logger !== undefined && <span className="muted">[{showDirectionControls(entry.logger)}] </span>}
              {showDirectionControls(entry.text)}
            </li>
          ))}
        </ol>
      </details>
    </section>
  );
}

export function ServersPage() {
  const [tick, setTick] = useState(0);
  const { data, error } = useJson<ServerView[]>('/api/servers', tick);
  const [logs, setLogs] = useState<ServerLogView[]>([]);
  const reconnects = useReconnects();
  // What arrived before the page opened (again when the event stream reconnected, some messages having passed it
  // by), then each new message as it arrives.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reconnects exists to trigger a reload.
  useEffect(() => {
    let live = true;
    void getJson<ServerLogView[]>('/api/server-logs').then(
      (history) => {
        // Told apart by the host's count, since two messages may arrive in the same millisecond.
        const last = history.at(-1)?.sequence ?? 0;
        if (live)
          setLogs((arrived) => [...history, ...arrived.filter((entry) => entry.sequence > last)].slice(-MAX_LOG_LINES));
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [reconnects]);
  useLiveEvents((event) => {
    if (event.type === 'server-log') setLogs((old) => [...old.slice(-(MAX_LOG_LINES - 1)), event.entry]);
    if (event.type === 'catalog' || event.type === 'host') setTick((value) => value + 1);
  });
  if (error !== undefined) return <p className="error">{showDirectionControls(error)}</p>;
  if (data === undefined) return <p>Loading…</p>;
  return (
    <div className="cards">
      {data.map((server) => (
        <ServerCard
          key={server.name}
          server={server}
          logs={logs.filter((entry) => entry.server === server.name)}
          onChanged={() => setTick((value) => value + 1)}
        />
      ))}
    </div>
  );
}
