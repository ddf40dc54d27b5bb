/** Servers' resources (read one) and prompts (fill in their arguments, see the messages). */
import { useState } from 'react';
import type { CallResultView, PromptView, ResourceView } from '../../../src/web/api-types';
import { postJson, useJson } from '../api';
import { JsonTree } from '../components/JsonTree';
import { ResultView } from '../components/ResultView';

function PromptForm({ prompt }: { prompt: PromptView }) {
  const [values, setValues] = useState<Record<string, string>>({});
  const [messages, setMessages] = useState<unknown>();
  const [error, setError] = useState<string>();
  return (
    <form
      className="card"
      aria-label={`Prompt ${prompt.name}`}
      onSubmit={(event) => {
        event.preventDefault();
        setError(undefined);
        postJson<{ messages: unknown }>('/api/prompts/get', {
          server: prompt.server,
          name: prompt.name,
          arguments: values,
        }).then(
          (result) => setMessages(result.messages),
          (failure: unknown) => setError(failure instanceof Error ? failure.message : String(failure)),
        );
      }}
    >
      <h3>
        {prompt.name} <span className="muted">({prompt.server})</span>
      </h3>
      {prompt.description !== undefined && <p>{prompt.description}</p>}
      {prompt.arguments.map((argument) => {
        const id = `prompt-${prompt.server}-${prompt.name}-${argument.name}`;
        return (
          <div className="field" key={argument.name}>
            <label htmlFor={id}>
              {argument.name}
              {argument.required && <span className="required"> *</span>}
            </label>
            {argument.description !== undefined && <div className="field-description">{argument.description}</div>}
            <input
              id={id}
              required={argument.required}
              value={values[argument.name] ?? ''}
              onChange={(event) => setValues({ ...values, [argument.name]: event.target.value })}
            />
          </div>
        );
      })}
      <button type="submit">Get prompt {prompt.name}</button>
      {error !== undefined && <p className="error">{error}</p>}
      {messages !== undefined && <JsonTree value={messages} />}
    </form>
  );
}

export function ResourcesPage() {
  const resources = useJson<ResourceView[]>('/api/resources');
  const prompts = useJson<PromptView[]>('/api/prompts');
  const [read, setRead] = useState<{ uri: string; result?: CallResultView; error?: string }>();
  const open = (resource: ResourceView) => {
    setRead({ uri: resource.uri });
    postJson<CallResultView>('/api/resources/read', { server: resource.server, uri: resource.uri }).then(
      (result) => setRead({ uri: resource.uri, result }),
      (failure: unknown) =>
        setRead({ uri: resource.uri, error: failure instanceof Error ? failure.message : String(failure) }),
    );
  };
  return (
    <div className="split">
      <section aria-labelledby="resources-title">
        <h2 id="resources-title">Resources</h2>
        {resources.error !== undefined && <p className="error">{resources.error}</p>}
        <ul className="tool-list">
          {(resources.data ?? []).map((resource) => (
            <li key={`${resource.server} ${resource.uri}`}>
              <button type="button" onClick={() => open(resource)}>
                {resource.name ?? resource.uri} <span className="muted">{resource.server}</span>
              </button>
            </li>
          ))}
        </ul>
        {resources.data?.length === 0 && <p>No server offers resources.</p>}
      </section>
      <section aria-labelledby="prompts-title">
        {read !== undefined && (
          <div aria-live="polite">
            <h2>{read.uri}</h2>
            {read.error !== undefined && <p className="error">{read.error}</p>}
            {read.result !== undefined && <ResultView result={read.result} />}
          </div>
        )}
        <h2 id="prompts-title">Prompts</h2>
        {prompts.error !== undefined && <p className="error">{prompts.error}</p>}
        {(prompts.data ?? []).map((prompt) => (
          <PromptForm key={`${prompt.server} ${prompt.name}`} prompt={prompt} />
        ))}
        {prompts.data?.length === 0 && <p>No server offers prompts.</p>}
      </section>
    </div>
  );
}
