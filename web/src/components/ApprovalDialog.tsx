/**
 * Whatever the host waits on — a tool call, a changed definition, a changed server, a sampling request, a form,
 * a URL — opens here as a modal dialog with the facts the terminal would show, answered with the same choices.
 * A question's answers take no click or key for a moment after it is shown, and none after one was given: the second
 * click of a double click, a repeated Enter, or a click meant for the question before (answered in another tab,
 * withdrawn) never answers the next question, which appears in the same place. The focus starts on the question's
 * title, not on an answer. A form's fields start with the server's defaults exactly, a field holding hidden characters
 * says so beneath it, and a choice is listed with them as escapes. A call whose arguments the view cuts offers them
 * whole on request (see WholeArguments). A question the chat's turn asked offers to stop that turn, since the dialog
 * covers the chat's Stop; one that is no turn's, shown while a turn runs, offers to stop that turn apart from the
 * answers, leaving the question open.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { showDirectionControls } from '../../../src/text/direction-controls';
import type { PendingApproval } from '../../../src/web/api-types';
import { postJson, useLiveEvents } from '../api';
import { errorMessage } from '../error-message';
import { showHiddenCharacters, showName } from '../hidden-characters';
import { useRunningTurn } from '../running-turn';
import { HiddenCharactersNotice, hiddenCharactersMark } from './HiddenCharacters';
import { SideBySide } from './SideBySide';
import { WholeArguments } from './WholeArguments';

/** How long a newly shown question's answers stay inert: longer than a double click, shorter than reading it. */
const ANSWERS_ARM_MS = 600;

function ElicitationFields({
  approval,
  values,
  setValues,
}: {
  approval: PendingApproval;
  values: Record<string, string | number | boolean | string[]>;
  setValues: (values: Record<string, string | number | boolean | string[]>) => void;
}) {
  // Ids of the UI's own: a field's name, the server's, may hold spaces, which split an id reference.
  const fieldIds = useId();
  return (
    <div className="elicitation-form">
      {(approval.fields ?? []).map((field, index) => {
        const id = `${fieldIds}-${index}`;
        const value = values[field.name];
        const set = (next: string | number | boolean | string[] | undefined) => {
          const copy = { ...values };
          if (next === undefined || next === '') delete copy[field.name];
          else copy[field.name] = next;
          setValues(copy);
        };
        return (
          <div className="field" key={field.name}>
            {field.kind === 'boolean' ? (
              <label className="inline" htmlFor={id}>
                <input
                  id={id}
                  type="checkbox"
                  checked={value === true}
                  onChange={(event) => set(event.target.checked)}
                />{' '}
                {showDirectionControls(field.label)}
              </label>
            ) : (
              <label htmlFor={id}>
                {showDirectionControls(field.label)}
                {field.required && <span className="required"> *</span>}
              </label>
            )}
            {field.description !== undefined && (
              <div className="field-description">{showDirectionControls(field.description)}</div>
            )}
            {field.secret && <div className="warning">This seems to ask for a password or other secret.</div>}
            {field.kind === 'choice' && (
              <select
                id={id}
                value={typeof value === 'string' ? value : ''}
                onChange={(event) => set(event.target.value)}
              >
                <option value="">(none)</option>
                {(field.choices ?? []).map((choice) => (
                  <option key={choice.value} value={choice.value}>
                    {showHiddenCharacters(choice.label, true)}
                  </option>
                ))}
              </select>
            )}
            {field.kind === 'multi-choice' && (
              <select
                id={id}
                multiple
                value={Array.isArray(value) ? value : []}
                onChange={(event) => set([...event.target.selectedOptions].map((option) => option.value))}
              >
                {(field.choices ?? []).map((choice) => (
                  <option key={choice.value} value={choice.value}>
                    {showHiddenCharacters(choice.label, true)}
                  </option>
                ))}
              </select>
            )}
            {(field.kind === 'text' || field.kind === 'number') && (
              <input
                id={id}
                type={field.kind === 'number' ? 'number' : 'text'}
                value={value === undefined ? '' : String(value)}
                onChange={(event) =>
                  set(
                    field.kind === 'number' && event.target.value !== ''
                      ? Number(event.target.value)
                      : event.target.value,
                  )
                }
                {...hiddenCharactersMark(`${id}-hidden`, value, true)}
              />
            )}
            {field.kind === 'text' && <HiddenCharactersNotice id={`${id}-hidden`} value={value} singleLine />}
          </div>
        );
      })}
    </div>
  );
}

export function ApprovalDialog() {
  const [pending, setPending] = useState<PendingApproval[]>([]);
  const [values, setValues] = useState<Record<string, string | number | boolean | string[]>>({});
  const [error, setError] = useState<string>();
  /** The question whose answers take input now: set a moment after it is shown, cleared once one is given. */
  const [armed, setArmed] = useState<string>();
  const dialog = useRef<HTMLDialogElement>(null);
  const title = useRef<HTMLHeadingElement>(null);
  useLiveEvents((event) => {
    if (event.type === 'approvals') setPending(event.pending);
  });
  const approval = pending[0];
  const answerable = approval !== undefined && armed === approval.id;
  // The question shown now, known at once to an answer that comes back: one refused after another tab answered its
  // question concerns that question alone, so the one shown since neither shows the refusal nor is disarmed by it.
  const shown = useRef<string | undefined>(undefined);
  shown.current = approval?.id;
  const ifStillShown = (question: string, work: () => void) => {
    if (shown.current === question) work();
  };
  // A question no turn asked: stopping it would not answer it, but the turn running meanwhile may be stopped.
  const runningTurn = useRunningTurn(approval !== undefined && approval.chatTurn === undefined);
  /** What stopping the running turn from this question came to, shown until another question is. */
  const [turnStopped, setTurnStopped] = useState<{ question: string; cancelled: boolean }>();
  useEffect(() => {
    const element = dialog.current;
    if (element === null) return;
    if (approval !== undefined && !element.open) element.showModal();
    if (approval === undefined && element.open) element.close();
  }, [approval]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new question starts with a fresh form.
  useEffect(() => {
    const initial: Record<string, string | number | boolean | string[]> = {};
    for (const field of approval?.fields ?? []) {
      if (field.default !== undefined) initial[field.name] = field.default as string;
    }
    setValues(initial);
    setError(undefined);
    setTurnStopped(undefined);
    if (approval === undefined) return;
    title.current?.focus();
    const timer = setTimeout(() => setArmed(approval.id), ANSWERS_ARM_MS);
    return () => clearTimeout(timer);
  }, [approval?.id]);

  const answer = async (value: string) => {
    if (approval === undefined || !answerable) return;
    const question = approval.id;
    setArmed(undefined);
    try {
      await postJson(`/api/approvals/${question}`, {
        answer: value,
        ...(approval.kind === 'elicit-form' && value === 'accept' ? { content: values } : {}),
      });
    } catch (failure) {
      ifStillShown(question, () => {
        setError(errorMessage(failure));
        setArmed(question);
      });
    }
  };
  // The dialog covers the chat's Stop: a question the chat's turn asked can stop that turn, refusing what it asks.
  const stopTurn = async () => {
    if (approval === undefined || !answerable) return;
    const question = approval.id;
    setArmed(undefined);
    try {
      await postJson('/api/chat/stop', { approval: question });
    } catch (failure) {
      ifStillShown(question, () => {
        setError(errorMessage(failure));
        setArmed(question);
      });
    }
  };
  // The dialog covers the chat's Stop, and a question no turn asked does not end with the turn: this stops the turn
  // as the chat's Stop does, the one running when the button was pressed, and the question stays to be answered. The
  // answers take no input for a moment after it, as after an answer, so a double click answers nothing.
  const stopRunningTurn = async () => {
    if (approval === undefined || !answerable || runningTurn === undefined) return;
    const question = approval.id;
    setArmed(undefined);
    try {
      const { cancelled } = await postJson<{ cancelled: boolean }>('/api/chat/cancel', { turnId: runningTurn });
      ifStillShown(question, () => {
        setTurnStopped({ question, cancelled });
        title.current?.focus();
      });
    } catch (failure) {
      ifStillShown(question, () => setError(errorMessage(failure)));
    }
    setTimeout(() => ifStillShown(question, () => setArmed((now) => now ?? question)), ANSWERS_ARM_MS);
  };
  const titleId = 'approval-title';
  return (
    <dialog
      ref={dialog}
      className="approval"
      aria-labelledby={titleId}
      onCancel={(event) => {
        // Escape is not an answer: the question stays until the user picks one.
        event.preventDefault();
      }}
    >
      {approval !== undefined && (
        <div>
          <h2 id={titleId} ref={title} tabIndex={-1}>
            {approval.title}
          </h2>
          {pending.length > 1 && <p className="muted">{pending.length - 1} more waiting after this one.</p>}
          <p>
            Server <strong>{showName(approval.server)}</strong>
            {approval.tool !== undefined && (
              <>
                {' '}
                · tool <strong>{showName(approval.tool)}</strong>
              </>
            )}
          </p>
          {approval.kind === 'elicit-url' && approval.domain !== undefined && (
            <p className="domain">
              Leads to <strong>{showName(approval.domain)}</strong>
            </p>
          )}
          {approval.kind === 'tool-definition' && approval.after !== undefined && (
            <SideBySide before={approval.before} after={approval.after} />
          )}
          <pre className="approval-view">{approval.view}</pre>
          {approval.kind === 'elicit-form' && (
            <ElicitationFields approval={approval} values={values} setValues={setValues} />
          )}
          {error !== undefined && (
            <p className="error" role="alert">
              {showDirectionControls(error)}
            </p>
          )}
          <div className="answers">
            {approval.answers.map((choice) => (
              <button
                type="button"
                key={choice.value}
                className={choice.value === 'deny' || choice.value === 'reject' ? 'danger' : ''}
                aria-disabled={answerable ? undefined : true}
                onClick={() => void answer(choice.value)}
              >
                {choice.label}
              </button>
            ))}
          </div>
          {approval.chatTurn !== undefined && (
            <p className="stop-turn">
              <button
                type="button"
                className="danger"
                aria-disabled={answerable ? undefined : true}
                aria-describedby="approval-stop-turn"
                onClick={() => void stopTurn()}
              >
                Stop the turn
              </button>{' '}
              <span id="approval-stop-turn" className="muted">
                {approval.kind === 'tool-call' ? 'Denies this call' : 'Refuses this'} and stops the chat's turn that
                asked.
              </span>
            </p>
          )}
          {approval.chatTurn === undefined && runningTurn !== undefined && (
            <p className="stop-running-turn">
              <button
                type="button"
                aria-disabled={answerable ? undefined : true}
                aria-describedby="approval-stop-running-turn"
                onClick={() => void stopRunningTurn()}
              >
                Stop the running turn — this question stays open
              </button>{' '}
              <span id="approval-stop-running-turn" className="muted">
                Not an answer: the chat's turn running now did not ask this. It is stopped as the chat's Stop does, and
                this question still waits for one of the answers above.
              </span>
            </p>
          )}
          <p className="muted" role="status">
            {turnStopped?.question !== approval.id
              ? ''
              : turnStopped.cancelled
                ? "The chat's turn is stopped; this question still waits for your answer."
                : "The chat's turn had ended already; this question still waits for your answer."}
          </p>
          {approval.argumentsCut && (
            <WholeArguments
              key={approval.id}
              id={approval.id}
              server={approval.server}
              {...(approval.tool === undefined ? {} : { tool: approval.tool })}
            />
          )}
        </div>
      )}
    </dialog>
  );
}
