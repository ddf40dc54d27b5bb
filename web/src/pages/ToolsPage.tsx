/** The catalog as the model sees it, with token costs; a form from each tool's schema to call it by hand. */
import { useMemo, useState } from 'react';
import { showDirectionControls } from '../../../src/text/direction-controls';
import type { CallResultView, ProgressView, ToolsView, ToolView } from '../../../src/web/api-types';
import { postJson, useJson, useLiveEvents } from '../api';
import { teardownViews } from '../app-views/live-views';
import { AppView } from '../components/AppView';
import { JsonTree } from '../components/JsonTree';
import { Notes } from '../components/Notes';
import { ResultView } from '../components/ResultView';
import { initialValue, type Schema, SchemaForm } from '../components/SchemaForm';
import { errorMessage } from '../error-message';
import { showName } from '../hidden-characters';

function ToolDetail({ tool }: { tool: ToolView }) {
  const [args, setArgs] = useState<Record<string, unknown>>(
    () => (initialValue(tool.inputSchema as Schema) ?? {}) as Record<string, unknown>,
  );
  const [result, setResult] = useState<CallResultView>();
  const [error, setError] = useState<string>();
  const [callId, setCallId] = useState<string>();
  const [progress, setProgress] = useState<ProgressView>();
  // The call whose view is shown (a tool with a view gets one per call, opened as the call starts).
  const [viewCall, setViewCall] = useState<{ id: string; input: Record<string, unknown> }>();
  useLiveEvents((event) => {
    if (event.type === 'progress' && event.progress.callId === callId) setProgress(event.progress);
  });
  const call = async () => {
    const id = crypto.randomUUID();
    setCallId(id);
    setProgress(undefined);
    setResult(undefined);
    setError(undefined);
    if (tool.viewUri !== undefined) {
      await teardownViews();
      setViewCall({ id, input: args });
    }
    try {
      setResult(await postJson<CallResultView>('/api/tools/call', { name: tool.name, arguments: args, callId: id }));
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setCallId(undefined);
    }
  };
  return (
    <section className="tool-detail" aria-labelledby="tool-title">
      <h2 id="tool-title">{showName(tool.name)}</h2>
      {tool.title !== undefined && <p className="muted">{showDirectionControls(tool.title)}</p>}
      <dl className="facts">
        <dt>Server</dt>
        <dd>{showName(tool.server)}</dd>
        <dt>The server calls it</dt>
        <dd>{showName(tool.originalName)}</dd>
        <dt>Trust</dt>
        <dd>{tool.trust}</dd>
        <dt>Estimated tokens</dt>
        <dd>{tool.tokens}</dd>
        {tool.viewUri !== undefined && (
          <>
            <dt>Interactive view</dt>
            <dd>{showName(tool.viewUri)}</dd>
          </>
        )}
        {tool.appOnly === true && (
          <>
            <dt>Visibility</dt>
            <dd>its app only: never offered to the model</dd>
          </>
        )}
      </dl>
      <h3>Description (as the model reads it)</h3>
      <pre className="text-block">{showDirectionControls(tool.description) || '(none)'}</pre>
      {tool.annotations !== undefined && (
        <>
          <h3>Annotations</h3>
          <ul className="annotations">
            {Object.entries(tool.annotations).map(([key, value]) => (
              <li key={key}>
                {showDirectionControls(key)}: {showDirectionControls(String(value))}
              </li>
            ))}
          </ul>
          {tool.trust === 'untrusted' && (
            <p className="muted">The server is untrusted: its annotations are not relied on.</p>
          )}
        </>
      )}
      <details>
        <summary>Input schema</summary>
        <JsonTree value={tool.inputSchema} />
      </details>
      {tool.outputSchema !== undefined && (
        <details>
          <summary>Output schema</summary>
          <JsonTree value={tool.outputSchema} />
        </details>
      )}
      <h3>Call it</h3>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void call();
        }}
      >
        <SchemaForm schema={tool.inputSchema as Schema} value={args} onChange={setArgs} />
        <div className="actions">
          <button type="submit" disabled={callId !== undefined}>
            Call {showName(tool.name)}
          </button>
          {callId !== undefined && (
            <button type="button" onClick={() => void postJson(`/api/tools/cancel/${callId}`)}>
              Cancel
            </button>
          )}
        </div>
      </form>
      {callId !== undefined && (
        <div role="status">
          Running…
          {progress !== undefined && (
            <>
              <progress value={progress.progress} max={progress.total ?? undefined} aria-label="Progress" />{' '}
              {progress.message !== undefined && showDirectionControls(progress.message)}
            </>
          )}
        </div>
      )}
      {error !== undefined && (
        <p className="error" role="alert">
          {showDirectionControls(error)}
        </p>
      )}
      {viewCall !== undefined && (
        <AppView
          key={viewCall.id}
          tool={tool.name}
          input={viewCall.input}
          {...(result?.forView === undefined ? {} : { result: result.forView })}
          {...(result?.outcome === 'cancelled' ? { cancelled: 'cancelled by the user' } : {})}
        />
      )}
      <Notes label="Warnings" notes={result?.warnings ?? []} className="notes warnings" />
      {result !== undefined && <ResultView result={result} />}
    </section>
  );
}

export function ToolsPage() {
  const [tick, setTick] = useState(0);
  const { data, error } = useJson<ToolsView>('/api/tools', tick);
  // `#/tools?tool=NAME` opens one tool (the terminal points there for a tool with a view).
  const [selected, setSelected] = useState<string | undefined>(
    () => new URLSearchParams(window.location.hash.split('?')[1] ?? '').get('tool') ?? undefined,
  );
  const [filter, setFilter] = useState('');
  useLiveEvents((event) => {
    if (event.type === 'catalog') setTick((value) => value + 1);
  });
  const shown = useMemo(
    () =>
      (data?.tools ?? []).filter((tool) =>
        `${tool.name} ${tool.description}`.toLowerCase().includes(filter.toLowerCase()),
      ),
    [data, filter],
  );
  if (error !== undefined) return <p className="error">{showDirectionControls(error)}</p>;
  if (data === undefined) return <p>Loading…</p>;
  const tool = data.tools.find((candidate) => candidate.name === selected);
  return (
    <div className="split">
      <aside aria-label="Tool list">
        <p>
          {data.tools.length} tools, about <strong>{data.totalTokens}</strong> tokens in every request.
        </p>
        <table className="compact">
          <caption className="visually-hidden">Tokens per server</caption>
          <thead>
            <tr>
              <th scope="col">Server</th>
              <th scope="col">Tools</th>
              <th scope="col">Tokens</th>
            </tr>
          </thead>
          <tbody>
            {data.servers.map((server) => (
              <tr key={server.name}>
                <td>{showName(server.name)}</td>
                <td>{server.tools}</td>
                <td>{server.tokens}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <label htmlFor="tool-filter">Filter tools</label>
        <input id="tool-filter" type="search" value={filter} onChange={(event) => setFilter(event.target.value)} />
        <ul className="tool-list">
          {shown.map((candidate) => (
            <li key={candidate.name}>
              <button
                type="button"
                aria-pressed={candidate.name === selected}
                onClick={() => setSelected(candidate.name)}
              >
                <span>{showName(candidate.name)}</span> <span className="muted no-wrap">{candidate.tokens} tokens</span>
              </button>
            </li>
          ))}
        </ul>
      </aside>
      <div>
        {tool === undefined ? (
          <p>Choose a tool to see its definition and call it.</p>
        ) : (
          <ToolDetail key={tool.name} tool={tool} />
        )}
      </div>
    </div>
  );
}
