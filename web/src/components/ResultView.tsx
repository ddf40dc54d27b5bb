/** A tool result by content type: text (or Markdown), images, audio, resource links, embedded resources, structuredContent. */
import { useState } from 'react';
import { showDirectionControls } from '../../../src/text/direction-controls';
import type { CallResultView, ContentView } from '../../../src/web/api-types';
import { jsonTextShowingHiddenCharacters, showName } from '../hidden-characters';
import { JsonTree } from './JsonTree';
import { Markdown } from './Markdown';

function Block({ block, asMarkdown }: { block: ContentView; asMarkdown: boolean }) {
  switch (block.type) {
    case 'text':
      return asMarkdown ? (
        <Markdown text={block.text} />
      ) : (
        <pre className="text-block">{showDirectionControls(block.text)}</pre>
      );
    case 'image':
      return (
        <img
          className="result-image"
          alt={`Returned by the tool (${block.mimeType})`}
          src={`data:${block.mimeType};base64,${block.data}`}
        />
      );
    case 'audio':
      return (
        <audio
          controls
          aria-label={`Audio from the tool (${block.mimeType})`}
          src={`data:${block.mimeType};base64,${block.data}`}
        >
          {/* A tool's audio comes without captions; the element still offers the track slot. */}
          <track kind="captions" />
        </audio>
      );
    case 'resource_link':
      return (
        <div className="resource-link">
          <span className="badge">resource link</span>{' '}
          <a href={`#/resources?uri=${encodeURIComponent(block.uri)}`}>{showName(block.name ?? block.uri)}</a>{' '}
          <span className="muted">{showName(block.uri)}</span>
          {block.description !== undefined && <div className="muted">{showDirectionControls(block.description)}</div>}
        </div>
      );
    case 'resource':
      return (
        <div className="embedded-resource">
          <div>
            <span className="badge">embedded resource</span> <span>{showName(block.uri)}</span>{' '}
            {block.mimeType !== undefined && <span className="muted">{showDirectionControls(block.mimeType)}</span>}
          </div>
          {block.text !== undefined && <pre className="text-block">{showDirectionControls(block.text)}</pre>}
          {block.blobBytes !== undefined && <div className="muted">{block.blobBytes} bytes of binary data</div>}
        </div>
      );
    default:
      return <pre className="text-block">{jsonTextShowingHiddenCharacters(block.json)}</pre>;
  }
}

export function ResultView({ result }: { result: CallResultView }) {
  const [asMarkdown, setAsMarkdown] = useState(false);
  return (
    <section className={`result ${result.isError ? 'result-error' : ''}`} aria-label="Result">
      <div className="result-head">
        <strong>{result.isError ? 'Error' : 'Result'}</strong> <span className="badge">{result.outcome}</span>{' '}
        <span className="muted">{result.durationMs} ms</span>
        <label className="inline">
          <input type="checkbox" checked={asMarkdown} onChange={(event) => setAsMarkdown(event.target.checked)} /> Show
          text as Markdown
        </label>
      </div>
      {result.content.map((block, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: content blocks have no identity but their place.
        <Block key={index} block={block} asMarkdown={asMarkdown} />
      ))}
      {result.structuredContent !== undefined && (
        <div className="structured">
          <h4>structuredContent</h4>
          {result.outputSchemaErrors !== undefined &&
            (result.outputSchemaErrors.length === 0 ? (
              <div className="ok">Matches the tool's outputSchema.</div>
            ) : (
              <div className="error">
                Does not match the outputSchema: {showDirectionControls(result.outputSchemaErrors.join(' '))}
              </div>
            ))}
          <JsonTree value={result.structuredContent} />
        </div>
      )}
    </section>
  );
}
