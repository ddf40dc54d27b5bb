/**
 * A tool call's arguments whole, for a question whose view cuts them: fetched and shown only on request, as text in a
 * block of bounded height that scrolls, so the dialog's answers stay on screen and arguments of any size never ride on
 * every approvals event. The button and the block sit below the answers: showing them moves no answer, so the second
 * click of a double click lands where the first did, on this and not on an answer. The button is not an answer and
 * answers nothing. The block names the call it belongs to, so whoever reads to its end still sees which call the
 * answers above are for.
 */
import { useEffect, useRef, useState } from 'react';
import type { WholeArgumentsView } from '../../../src/web/api-types';
import { getJson } from '../api';
import { errorMessage } from '../error-message';
import { showName } from '../hidden-characters';

type Fetched = { state: 'loading' } | { state: 'shown'; text: string } | { state: 'failed'; message: string };

export function WholeArguments({ id, server, tool }: { id: string; server: string; tool?: string }) {
  const [fetched, setFetched] = useState<Fetched | undefined>(undefined);
  const block = useRef<HTMLPreElement>(null);
  const shown = fetched?.state === 'shown';
  // The button goes once pressed: the focus moves to the block, which the keyboard can then scroll.
  useEffect(() => {
    if (shown) block.current?.focus();
  }, [shown]);
  const show = () => {
    setFetched({ state: 'loading' });
    getJson<WholeArgumentsView>(`/api/approvals/${encodeURIComponent(id)}/arguments`).then(
      (view) => setFetched({ state: 'shown', text: view.text }),
      (error: unknown) => setFetched({ state: 'failed', message: errorMessage(error) }),
    );
  };
  if (fetched === undefined || fetched.state === 'failed') {
    return (
      <div className="whole-arguments">
        <button type="button" onClick={show}>
          Show the whole arguments
        </button>
        {fetched?.state === 'failed' && <p role="alert">Could not get them: {fetched.message}</p>}
      </div>
    );
  }
  if (fetched.state === 'loading') return <div className="whole-arguments">Getting the whole arguments…</div>;
  return (
    <section className="whole-arguments" aria-label="The whole arguments">
      <p>
        The whole arguments of the call of tool <strong>{showName(tool ?? '')}</strong> on server{' '}
        <strong>{showName(server)}</strong>:
      </p>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region takes the focus to scroll by keyboard. */}
      <pre ref={block} className="whole-arguments-text" tabIndex={0}>
        {fetched.text}
      </pre>
    </section>
  );
}
