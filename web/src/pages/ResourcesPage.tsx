/**
 * Servers' resources (read one, subscribe to its changes), resource templates (fill in their variables with the
 * server's suggestions, then read) and prompts (fill in their arguments, see the messages).
 */
import { useEffect, useId, useState } from 'react';
import { showDirectionControls } from '../../../src/text/direction-controls';
import type {
  CallResultView,
  PromptView,
  ResourceSubscriptionView,
  ResourceTemplateView,
  ResourceView,
} from '../../../src/web/api-types';
import { postJson, useJson, useLiveEvents } from '../api';
import { HiddenCharactersNotice, hiddenCharactersMark } from '../components/HiddenCharacters';
import { JsonTree } from '../components/JsonTree';
import { ResultView } from '../components/ResultView';
import { errorMessage } from '../error-message';
import { hasHiddenCharacters, showHiddenCharacters, showName } from '../hidden-characters';
import { expandTemplate, templateVariables } from '../uri-template';

/**
 * A text field whose suggestions come from the server (`completion/complete`), as the user types. A chosen suggestion
 * is sent exactly as the server gave it. The browser draws a suggestion list itself and shows each value raw, so it
 * lists only the suggestions that read as they are; one with hidden characters is a button beneath, shown with them
 * as escapes, that fills in the exact value (and the field then says what it holds).
 */
function CompletingInput(props: {
  label: string;
  description?: string;
  required: boolean;
  value: string;
  onChange: (value: string) => void;
  complete: (value: string) => Promise<string[]>;
}) {
  const [suggestions, setSuggestions] = useState<string[]>([]);
  // Ids of the UI's own: names of templates, prompts and arguments may hold spaces, and two could join alike.
  const id = useId();
  const listId = `${id}-suggestions`;
  const noticeId = `${id}-hidden`;
  const plain = suggestions.filter((suggestion) => !hasHiddenCharacters(suggestion, true));
  const hidden = suggestions.filter((suggestion) => hasHiddenCharacters(suggestion, true));
  return (
    <div className="field">
      <label htmlFor={id}>
        {showName(props.label)}
        {props.required && <span className="required"> *</span>}
      </label>
      {props.description !== undefined && (
        <div className="field-description">{showDirectionControls(props.description)}</div>
      )}
      <input
        id={id}
        list={listId}
        required={props.required}
        autoComplete="off"
        value={props.value}
        onChange={(event) => {
          const value = event.target.value;
          props.onChange(value);
          props.complete(value).then(setSuggestions, () => setSuggestions([]));
        }}
        {...hiddenCharactersMark(noticeId, props.value, true)}
      />
      <HiddenCharactersNotice id={noticeId} value={props.value} singleLine />
      <datalist id={listId}>
        {plain.map((suggestion) => (
          <option key={suggestion} value={suggestion} />
        ))}
      </datalist>
      {hidden.length > 0 && (
        <div className="hidden-suggestions">
          <span className="muted">Suggested, with hidden characters shown as escapes:</span>
          <ul
            className="hidden-suggestions-list"
            aria-label={`Suggestions with hidden characters for ${showName(props.label)}`}
          >
            {hidden.map((suggestion) => (
              <li key={suggestion}>
                <button type="button" onClick={() => props.onChange(suggestion)}>
                  {showHiddenCharacters(suggestion, true)}
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

const complete = (body: Record<string, unknown>) =>
  postJson<{ values: string[] }>('/api/complete', body).then((answer) => answer.values);

function TemplateForm({
  template,
  onRead,
}: {
  template: ResourceTemplateView;
  onRead: (resource: ResourceView) => void;
}) {
  const [values, setValues] = useState<Record<string, string>>({});
  const name = template.name ?? template.uriTemplate;
  const uri = expandTemplate(template.uriTemplate, values);
  return (
    <form
      className="card"
      aria-label={`Template ${showName(name)}`}
      onSubmit={(event) => {
        event.preventDefault();
        onRead({ server: template.server, uri, ...(template.subscribable ? { subscribable: true } : {}) });
      }}
    >
      <h3>
        {showName(name)} <span className="muted">({showName(template.server)})</span>
      </h3>
      <p className="muted">{showName(template.uriTemplate)}</p>
      {template.description !== undefined && <p>{showDirectionControls(template.description)}</p>}
      {templateVariables(template.uriTemplate).map((variable) => (
        <CompletingInput
          key={variable}
          label={variable}
          required
          value={values[variable] ?? ''}
          onChange={(value) => setValues((old) => ({ ...old, [variable]: value }))}
          complete={(value) =>
            complete({
              server: template.server,
              uriTemplate: template.uriTemplate,
              argument: variable,
              value,
              context: values,
            })
          }
        />
      ))}
      <button type="submit">Read {showName(name)}</button>
    </form>
  );
}

function PromptForm({ prompt }: { prompt: PromptView }) {
  const [values, setValues] = useState<Record<string, string>>({});
  const [messages, setMessages] = useState<unknown>();
  const [error, setError] = useState<string>();
  return (
    <form
      className="card"
      aria-label={`Prompt ${showName(prompt.name)}`}
      onSubmit={(event) => {
        event.preventDefault();
        setError(undefined);
        postJson<{ messages: unknown }>('/api/prompts/get', {
          server: prompt.server,
          name: prompt.name,
          arguments: values,
        }).then(
          (result) => setMessages(result.messages),
          (failure: unknown) => setError(errorMessage(failure)),
        );
      }}
    >
      <h3>
        {showName(prompt.name)} <span className="muted">({showName(prompt.server)})</span>
      </h3>
      {prompt.description !== undefined && <p>{showDirectionControls(prompt.description)}</p>}
      {prompt.arguments.map((argument) => (
        <CompletingInput
          key={argument.name}
          label={argument.name}
          {...(argument.description === undefined ? {} : { description: argument.description })}
          required={argument.required}
          value={values[argument.name] ?? ''}
          onChange={(value) => setValues((old) => ({ ...old, [argument.name]: value }))}
          complete={(value) =>
            complete({ server: prompt.server, prompt: prompt.name, argument: argument.name, value, context: values })
          }
        />
      ))}
      <button type="submit">Get prompt {showName(prompt.name)}</button>
      {error !== undefined && <p className="error">{showDirectionControls(error)}</p>}
      {messages !== undefined && <JsonTree value={messages} />}
    </form>
  );
}

export function ResourcesPage() {
  const resources = useJson<ResourceView[]>('/api/resources');
  const templates = useJson<ResourceTemplateView[]>('/api/resource-templates');
  const prompts = useJson<PromptView[]>('/api/prompts');
  const initial = useJson<ResourceSubscriptionView[]>('/api/resources/subscriptions');
  const [changed, setChanged] = useState<ResourceSubscriptionView[]>();
  const subscriptions = changed ?? initial.data ?? [];
  // Loaded again (the event stream reconnected, updates may have passed it by): the server's list is the one to show.
  useEffect(() => {
    if (initial.data !== undefined) setChanged(undefined);
  }, [initial.data]);
  const [read, setRead] = useState<{ resource: ResourceView; result?: CallResultView; error?: string }>();
  const [note, setNote] = useState<string>();
  const open = (resource: ResourceView) => {
    setRead({ resource });
    postJson<CallResultView>('/api/resources/read', { server: resource.server, uri: resource.uri }).then(
      (result) => setRead({ resource, result }),
      (failure: unknown) => setRead({ resource, error: errorMessage(failure) }),
    );
  };
  useLiveEvents((event) => {
    if (event.type !== 'resource-updated') return;
    const { server, uri } = event.subscription;
    setChanged((old) =>
      (old ?? initial.data ?? []).map((entry) =>
        entry.server === server && entry.uri === uri ? event.subscription : entry,
      ),
    );
    // The resource on screen changed: read it again.
    if (read?.resource.server === server && read.resource.uri === uri) open(read.resource);
  });
  const subscribed = (server: string, uri: string) =>
    subscriptions.some((entry) => entry.server === server && entry.uri === uri);
  const toggle = (server: string, uri: string) => {
    const on = !subscribed(server, uri);
    postJson<ResourceSubscriptionView>(`/api/resources/${on ? 'subscribe' : 'unsubscribe'}`, { server, uri }).then(
      (entry) => {
        setChanged((old) => {
          const others = (old ?? initial.data ?? []).filter((other) => !(other.server === server && other.uri === uri));
          return on ? [...others, entry] : others;
        });
        setNote(on ? `Subscribed to ${showName(uri)}.` : `Unsubscribed from ${showName(uri)}.`);
      },
      (failure: unknown) => setNote(errorMessage(failure)),
    );
  };
  return (
    <div className="split">
      <div>
        <section aria-labelledby="resources-title">
          <h2 id="resources-title">Resources</h2>
          {resources.error !== undefined && <p className="error">{showDirectionControls(resources.error)}</p>}
          <ul className="tool-list">
            {(resources.data ?? []).map((resource) => (
              <li key={`${resource.server} ${resource.uri}`}>
                <button type="button" onClick={() => open(resource)}>
                  {showName(resource.name ?? resource.uri)} <span className="muted">{showName(resource.server)}</span>
                </button>
              </li>
            ))}
          </ul>
          {resources.data?.length === 0 && <p>No server offers resources.</p>}
        </section>
        <section aria-labelledby="templates-title">
          <h2 id="templates-title">Resource templates</h2>
          {templates.error !== undefined && <p className="error">{showDirectionControls(templates.error)}</p>}
          {(templates.data ?? []).map((template) => (
            <TemplateForm key={`${template.server} ${template.uriTemplate}`} template={template} onRead={open} />
          ))}
          {templates.data?.length === 0 && <p>No server offers resource templates.</p>}
        </section>
        <section aria-labelledby="subscriptions-title">
          <h2 id="subscriptions-title">Subscriptions</h2>
          {note !== undefined && <p role="status">{showDirectionControls(note)}</p>}
          {subscriptions.length === 0 ? (
            <p>None. Read a resource, then subscribe to follow its changes.</p>
          ) : (
            <ul>
              {subscriptions.map((entry) => (
                <li key={`${entry.server} ${entry.uri}`}>
                  {showName(entry.uri)} <span className="muted">({showName(entry.server)})</span>{' '}
                  <span>
                    {entry.updates === 1 ? '1 update' : `${entry.updates} updates`}
                    {entry.lastUpdated === undefined ? '' : `, last at ${entry.lastUpdated.slice(11, 19)}`}
                  </span>{' '}
                  <button type="button" onClick={() => toggle(entry.server, entry.uri)}>
                    Unsubscribe from {showName(entry.uri)}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
      <section aria-labelledby="prompts-title">
        {read !== undefined && (
          <div aria-live="polite">
            <h2>{showName(read.resource.uri)}</h2>
            {read.resource.subscribable === true && !subscribed(read.resource.server, read.resource.uri) && (
              <button type="button" onClick={() => toggle(read.resource.server, read.resource.uri)}>
                Subscribe to {showName(read.resource.uri)}
              </button>
            )}
            {read.error !== undefined && <p className="error">{showDirectionControls(read.error)}</p>}
            {read.result !== undefined && <ResultView result={read.result} />}
          </div>
        )}
        <h2 id="prompts-title">Prompts</h2>
        {prompts.error !== undefined && <p className="error">{showDirectionControls(prompts.error)}</p>}
        {(prompts.data ?? []).map((prompt) => (
          <PromptForm key={`${prompt.server} ${prompt.name}`} prompt={prompt} />
        ))}
        {prompts.data?.length === 0 && <p>No server offers prompts.</p>}
      </section>
    </div>
  );
}
