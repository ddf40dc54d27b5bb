/** Withheld and changed tools with the definition before and now side by side; approve or revoke. */
import { useId, useState } from 'react';
import { showDirectionControls } from '../../../src/text/direction-controls';
import type { PendingApproval, TrustServerView } from '../../../src/web/api-types';
import { postJson, useJson, useLiveEvents } from '../api';
import { SideBySide } from '../components/SideBySide';
import { errorMessage } from '../error-message';
import { showName } from '../hidden-characters';

function needsAttention(server: TrustServerView): boolean {
  return server.status !== 'known' || server.tools.some((tool) => tool.availability === 'withheld');
}

export function TrustPage() {
  const [tick, setTick] = useState(0);
  const { data, error } = useJson<TrustServerView[]>('/api/trust', tick);
  const [pending, setPending] = useState<PendingApproval[]>([]);
  const [note, setNote] = useState<string>();
  // Headings are known by ids of the UI's own: a server's name may hold spaces, which split an id reference.
  const headingIds = useId();
  useLiveEvents((event) => {
    if (event.type === 'approvals') setPending(event.pending.filter((item) => item.kind === 'tool-definition'));
    if (event.type === 'catalog' || event.type === 'audit') setTick((value) => value + 1);
  });
  const change = async (action: 'approve' | 'revoke', server: string, tool?: string) => {
    try {
      const result = await postJson<{ message: string }>(`/api/trust/${action}`, {
        server,
        ...(tool === undefined ? {} : { tool }),
      });
      setNote(result.message);
    } catch (failure) {
      setNote(errorMessage(failure));
    }
    setTick((value) => value + 1);
  };
  if (error !== undefined) return <p className="error">{showDirectionControls(error)}</p>;
  if (data === undefined) return <p>Loading…</p>;
  return (
    <>
      {note !== undefined && <p role="status">{showDirectionControls(note)}</p>}
      {pending.length > 0 && (
        <p className="warning">{pending.length} tool definition(s) wait for your answer in the dialog.</p>
      )}
      {[...data]
        .sort((a, b) => Number(needsAttention(b)) - Number(needsAttention(a)))
        .map((server, index) => {
          const headingId = `${headingIds}-${index}`;
          const attention = server.tools.filter(
            (tool) => tool.availability === 'withheld' || tool.status === 'changed',
          );
          return (
            <section className="card" key={server.name} aria-labelledby={headingId}>
              <h2 id={headingId}>
                {showName(server.name)} <span className="badge">{server.trust ?? 'not in config'}</span>{' '}
                <span className={`badge status-${server.status}`}>{server.status}</span>
              </h2>
              {server.error !== undefined && <p className="error">{showDirectionControls(server.error)}</p>}
              <div className="actions">
                {server.status !== 'known' && (
                  <button type="button" onClick={() => void change('approve', server.name)}>
                    Approve server {showName(server.name)}
                  </button>
                )}
                <button type="button" className="danger" onClick={() => void change('revoke', server.name)}>
                  Revoke server {showName(server.name)}
                </button>
              </div>
              {attention.map((tool) => (
                <article className="withheld" key={tool.name} aria-label={`Withheld tool ${showName(tool.name)}`}>
                  <h3>
                    {showName(tool.namespacedName ?? tool.name)} <span className="badge">{tool.status}</span>{' '}
                    <span className="badge">{tool.availability}</span>
                  </h3>
                  {tool.withheldBecause !== undefined && <p>{showDirectionControls(tool.withheldBecause)}</p>}
                  {tool.hiddenContent.map((line) => (
                    <p className="warning" key={line}>
                      {showDirectionControls(line)}
                    </p>
                  ))}
                  {tool.after !== undefined && <SideBySide before={tool.before} after={tool.after} />}
                  <button type="button" onClick={() => void change('approve', server.name, tool.name)}>
                    Approve {showName(tool.name)}
                  </button>
                </article>
              ))}
              <table className="compact">
                <thead>
                  <tr>
                    <th scope="col">Tool</th>
                    <th scope="col">State</th>
                    <th scope="col">Model sees it</th>
                    <th scope="col">Approved by</th>
                    <th scope="col">
                      <span className="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {server.tools.map((tool) => (
                    <tr key={tool.name}>
                      <td>{showName(tool.namespacedName ?? tool.name)}</td>
                      <td>{tool.storedState ?? tool.status}</td>
                      <td>{tool.availability}</td>
                      <td>
                        {tool.wasApprovedBy === undefined
                          ? showName(tool.approvedBy ?? '')
                          : `revoked (was ${showName(tool.wasApprovedBy)})`}
                      </td>
                      <td>
                        {tool.storedState === 'approved' && (
                          <button
                            type="button"
                            className="danger"
                            onClick={() => void change('revoke', server.name, tool.name)}
                          >
                            Revoke {showName(tool.name)}
                          </button>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
          );
        })}
    </>
  );
}
