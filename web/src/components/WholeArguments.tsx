/**
 * A tool call's arguments whole, for a question whose view cuts them: shown only on request, as text in a block of
 * bounded height that scrolls, so the dialog's answers stay on screen. The button and the block sit below the answers:
 * showing them moves no answer, so the second click of a double click lands where the first did, on this and not on
 * an answer. The button is not an answer and answers nothing. The block names the call it belongs to, so whoever
 * reads to its end still sees which call the answers above are for.
 */
import { useEffect, useRef, useState } from 'react';
import { showName } from '../hidden-characters';

export function WholeArguments({ text, server, tool }: { text: string; server: string; tool?: string }) {
  const [shown, setShown] = useState(false);
  const block = useRef<HTMLPreElement>(null);
  // The button goes once pressed: the focus moves to the block, which the keyboard can then scroll.
  useEffect(() => {
    if (shown) block.current?.focus();
  }, [shown]);
  if (!shown) {
    return (
      <div className="whole-arguments">
        <button type="button" onClick={() => setShown(true)}>
          Show the whole arguments
        </button>
      </div>
    );
  }
  return (
    <section className="whole-arguments" aria-label="The whole arguments">
      <p>
        The whole arguments of the call of tool <strong>{showName(tool ?? '')}</strong> on server{' '}
        <strong>{showName(server)}</strong>:
      </p>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region takes the focus to scroll by keyboard. */}
      <pre ref={block} className="whole-arguments-text" tabIndex={0}>
        {text}
      </pre>
    </section>
  );
}
