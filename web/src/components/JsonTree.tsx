/**
 * A JSON value as a collapsible tree; every key and value is rendered as text, with every hidden character as an
 * escape: a string as the JSON the Audit page's records are shown in, a key as a name.
 */
import { useState } from 'react';
import { jsonShowingHiddenCharacters, showName } from '../hidden-characters';

function Leaf({ value }: { value: unknown }) {
  const kind = value === null ? 'null' : typeof value;
  return (
    <span className={`json-${kind}`}>
      {typeof value === 'string' ? jsonShowingHiddenCharacters(value) : String(value)}
    </span>
  );
}

export function JsonTree({
  value,
  label,
  open = true,
  depth = 0,
}: {
  value: unknown;
  label?: string;
  open?: boolean;
  depth?: number;
}) {
  const [expanded, setExpanded] = useState(open && depth < 3);
  const isObject = typeof value === 'object' && value !== null;
  if (!isObject) {
    return (
      <div className="json-row">
        {label !== undefined && <span className="json-key">{showName(label)}: </span>}
        <Leaf value={value} />
      </div>
    );
  }
  const entries = Array.isArray(value)
    ? value.map((item, index) => [String(index), item] as const)
    : Object.entries(value);
  const summary = Array.isArray(value) ? `[${entries.length}]` : `{${entries.length}}`;
  return (
    <div className="json-node">
      <button type="button" className="json-toggle" aria-expanded={expanded} onClick={() => setExpanded(!expanded)}>
        {expanded ? '▾' : '▸'} {label !== undefined && <span className="json-key">{showName(label)}</span>}{' '}
        <span className="muted">{summary}</span>
      </button>
      {expanded && (
        <div className="json-children">
          {entries.map(([key, item]) => (
            <JsonTree key={key} label={key} value={item} depth={depth + 1} open={open} />
          ))}
        </div>
      )}
    </div>
  );
}
