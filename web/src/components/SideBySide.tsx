/**
 * Two versions of a tool definition (JSON) next to each other, lines that differ marked (as text, never markup), with
 * every hidden character as a JSON escape: a line that differs only by one shows how.
 */
import { jsonTextShowingHiddenCharacters } from '../hidden-characters';

export function SideBySide({ before, after }: { before?: string; after: string }) {
  const left = (before ?? '').split('\n');
  const right = after.split('\n');
  const leftSet = new Set(left);
  const rightSet = new Set(right);
  return (
    <fieldset className="side-by-side">
      <legend className="visually-hidden">Definition, approved and now</legend>
      <div>
        <h4>Approved before</h4>
        <pre>
          {before === undefined
            ? '(nothing approved before)'
            : left.map((line, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: lines are known by their place.
                <span key={index} className={rightSet.has(line) ? '' : 'removed'}>
                  {rightSet.has(line) ? '  ' : '- '}
                  {jsonTextShowingHiddenCharacters(line)}
                  {'\n'}
                </span>
              ))}
        </pre>
      </div>
      <div>
        <h4>Now</h4>
        <pre>
          {right.map((line, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: lines are known by their place.
            <span key={index} className={leftSet.has(line) || before === undefined ? '' : 'added'}>
              {leftSet.has(line) || before === undefined ? '  ' : '+ '}
              {jsonTextShowingHiddenCharacters(line)}
              {'\n'}
            </span>
          ))}
        </pre>
      </div>
    </fieldset>
  );
}
