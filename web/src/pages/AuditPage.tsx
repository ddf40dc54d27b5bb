/** The audit log as a filterable timeline, growing live as calls happen. */
import { useEffect, useMemo, useState } from 'react';
import { showDirectionControls } from '../../../src/text/direction-controls';
import type { AuditEntryView } from '../../../src/web/api-types';
import { useJson, useLiveEvents } from '../api';
import { jsonTextShowingHiddenCharacters, showName } from '../hidden-characters';

/** Rows kept on the page; the log itself keeps everything (`mcp-host audit`). */
const MAX_ROWS = 2_000;

export function AuditPage() {
  const { data, error } = useJson<AuditEntryView[]>('/api/audit');
  const [live, setLive] = useState<AuditEntryView[]>([]);
  const [server, setServer] = useState('');
  const [tool, setTool] = useState('');
  const [decision, setDecision] = useState('');
  const [outcome, setOutcome] = useState('');
  const [since, setSince] = useState('');
  const [until, setUntil] = useState('');
  useLiveEvents((event) => {
    if (event.type === 'audit') setLive((old) => [...old.slice(-(MAX_ROWS - 1)), event.entry]);
  });
  // The log loaded again (the event stream reconnected): what it holds is no longer kept twice. Records are told
  // apart by the host's count of them, since two may be written in the same millisecond.
  useEffect(() => {
    const last = data?.at(-1)?.sequence;
    if (last !== undefined) setLive((old) => old.filter((entry) => entry.sequence > last));
  }, [data]);
  const rows = useMemo(() => {
    const all = [...(data ?? []), ...live].slice(-MAX_ROWS).reverse();
    return all.filter(
      (row) =>
        (server === '' || row.server === server) &&
        (tool === '' || (row.tool ?? '').includes(tool)) &&
        (decision === '' || row.decision === decision) &&
        (outcome === '' || row.outcome === outcome) &&
        (since === '' || row.time >= new Date(since).toISOString()) &&
        (until === '' || row.time <= new Date(until).toISOString()),
    );
  }, [data, live, server, tool, decision, outcome, since, until]);
  const servers = [
    ...new Set([...(data ?? []), ...live].map((row) => row.server).filter((name) => name !== undefined)),
  ];
  if (error !== undefined) return <p className="error">{showDirectionControls(error)}</p>;
  return (
    <>
      <form className="filters" aria-label="Filters" onSubmit={(event) => event.preventDefault()}>
        <label>
          Server
          <select value={server} onChange={(event) => setServer(event.target.value)}>
            <option value="">any</option>
            {servers.map((name) => (
              // Filters by the exact name; lists it with its invisible characters shown as escapes.
              <option key={name} value={name}>
                {showName(name)}
              </option>
            ))}
          </select>
        </label>
        <label>
          Tool contains
          <input type="search" value={tool} onChange={(event) => setTool(event.target.value)} />
        </label>
        <label>
          Decision
          <select value={decision} onChange={(event) => setDecision(event.target.value)}>
            <option value="">any</option>
            <option>allow</option>
            <option>deny</option>
          </select>
        </label>
        <label>
          Outcome
          <select value={outcome} onChange={(event) => setOutcome(event.target.value)}>
            <option value="">any</option>
            {['ok', 'error', 'timeout', 'denied', 'crashed', 'cancelled'].map((name) => (
              <option key={name}>{name}</option>
            ))}
          </select>
        </label>
        <label>
          From
          <input type="datetime-local" value={since} onChange={(event) => setSince(event.target.value)} />
        </label>
        <label>
          To
          <input type="datetime-local" value={until} onChange={(event) => setUntil(event.target.value)} />
        </label>
      </form>
      <p role="status" aria-live="polite">
        {rows.length} records{live.length > 0 ? `, ${live.length} since this page opened` : ''}.
      </p>
      <table className="audit">
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Type</th>
            <th scope="col">Server</th>
            <th scope="col">Tool</th>
            <th scope="col">Decision</th>
            <th scope="col">Outcome</th>
            <th scope="col">Details</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: records have no id of their own.
            <tr key={`${row.time}-${index}`} className={`audit-${row.outcome ?? row.type}`}>
              <td>
                <time dateTime={row.time}>{new Date(row.time).toLocaleString()}</time>
              </td>
              <td>{row.type}</td>
              <td>{showName(row.server ?? '')}</td>
              <td>{showName(row.tool ?? '')}</td>
              <td>{row.decision}</td>
              <td>{row.outcome ?? row.change}</td>
              <td>
                <details>
                  <summary>{showDirectionControls(row.reason ?? row.detail ?? 'record')}</summary>
                  <pre className="text-block">{jsonTextShowingHiddenCharacters(row.json)}</pre>
                </details>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
