/**
 * A form generated from a tool's input schema: nested objects, arrays, enums, oneOf/anyOf, defaults and required
 * marks, with a raw-JSON mode for anything the form cannot express. Every label, description and choice from the
 * schema is rendered as text, with its direction controls shown as escapes. A value the form fills in (a default, a
 * chosen choice) is sent exactly as the schema gives it: a choice is listed with its hidden characters as escapes,
 * a field holding them is marked and says so beneath it, and JSON shows them as JSON escapes.
 */
import { useId, useState } from 'react';
import { ownValue, setOwnProperty } from '../../../src/json/own-property';
import { showDirectionControls } from '../../../src/text/direction-controls';
import { jsonShowingHiddenCharacters, showHiddenCharacters } from '../hidden-characters';
import { HiddenCharactersNotice, hiddenCharactersMark } from './HiddenCharacters';

export type Schema = {
  type?: string | string[];
  title?: string;
  description?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  oneOf?: Schema[];
  anyOf?: Schema[];
  minimum?: number;
  maximum?: number;
};

function typeOf(schema: Schema): string | undefined {
  if (Array.isArray(schema.type)) return schema.type.find((type) => type !== 'null');
  if (schema.type !== undefined) return schema.type;
  if (schema.properties !== undefined) return 'object';
  if (schema.items !== undefined) return 'array';
  return undefined;
}

/** The value a fresh form starts with: defaults where the schema gives them, required objects filled in. */
export function initialValue(schema: Schema): unknown {
  if (schema.default !== undefined) return structuredClone(schema.default);
  if (schema.const !== undefined) return schema.const;
  const type = typeOf(schema);
  if (type === 'object') {
    const value: Record<string, unknown> = {};
    for (const [key, property] of Object.entries(schema.properties ?? {})) {
      const initial = initialValue(property);
      if (initial !== undefined && (schema.required?.includes(key) || property.default !== undefined))
        setOwnProperty(value, key, initial);
    }
    return value;
  }
  if (type === 'array') return [];
  if (type === 'boolean' && schema.default === undefined) return undefined;
  return undefined;
}

interface FieldProps {
  schema: Schema;
  value: unknown;
  onChange: (value: unknown) => void;
  label: string;
  required: boolean;
  path: string;
}

/** A schema's text as shown: the server's, so not always a string, and with direction controls shown as escapes. */
function shown(text: unknown): string {
  return showDirectionControls(String(text));
}

/** A choice as listed: the value it sends, as JSON unless a string, with every hidden character as an escape. */
function shownChoice(option: unknown): string {
  return showHiddenCharacters(typeof option === 'string' ? option : JSON.stringify(option), true);
}

function Description({ schema }: { schema: Schema }) {
  return schema.description === undefined ? null : <div className="field-description">{shown(schema.description)}</div>;
}

function Label({ label, required, htmlFor }: { label: string; required: boolean; htmlFor: string }) {
  return (
    <label htmlFor={htmlFor}>
      {shown(label)}
      {required && (
        <span className="required" title="required">
          {' '}
          * <span className="visually-hidden">(required)</span>
        </span>
      )}
    </label>
  );
}

function VariantField(props: FieldProps & { variants: Schema[] }) {
  const [chosen, setChosen] = useState(0);
  const id = useId();
  const variant = props.variants[chosen] ?? {};
  return (
    <fieldset className="field">
      <legend>
        {shown(props.label)}
        {props.required && <span className="required"> *</span>}
      </legend>
      <Description schema={props.schema} />
      <label htmlFor={id}>Kind</label>
      <select
        id={id}
        value={chosen}
        onChange={(event) => {
          const index = Number(event.target.value);
          setChosen(index);
          props.onChange(initialValue(props.variants[index] ?? {}));
        }}
      >
        {props.variants.map((option, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: variants are known by their place.
          <option key={index} value={index}>
            {shown(option.title ?? (typeOf(option) as string | undefined) ?? `option ${index + 1}`)}
          </option>
        ))}
      </select>
      <Field {...props} schema={variant} label={`${props.label} (${variant.title ?? typeOf(variant) ?? 'value'})`} />
    </fieldset>
  );
}

export function Field(props: FieldProps) {
  const { schema, value, onChange, label, required, path } = props;
  const id = useId();
  const variants = schema.oneOf ?? schema.anyOf;
  if (variants !== undefined && variants.length > 0) return <VariantField {...props} variants={variants} />;
  const type = typeOf(schema);

  if (schema.enum !== undefined) {
    return (
      <div className="field">
        <Label label={label} required={required} htmlFor={id} />
        <Description schema={schema} />
        <select
          id={id}
          value={value === undefined ? '' : JSON.stringify(value)}
          onChange={(event) => onChange(event.target.value === '' ? undefined : JSON.parse(event.target.value))}
        >
          <option value="">(none)</option>
          {schema.enum.map((option) => (
            <option key={JSON.stringify(option)} value={JSON.stringify(option)}>
              {shownChoice(option)}
            </option>
          ))}
        </select>
      </div>
    );
  }
  if (type === 'object') {
    const object = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
    return (
      <fieldset className="field">
        <legend>
          {shown(label)}
          {required && <span className="required"> *</span>}
        </legend>
        <Description schema={schema} />
        {Object.entries(schema.properties ?? {}).map(([key, property]) => (
          <Field
            key={key}
            schema={property}
            label={property.title ?? key}
            required={schema.required?.includes(key) ?? false}
            path={`${path}.${key}`}
            value={ownValue(object, key)}
            onChange={(next) => {
              const copy = { ...object };
              if (next === undefined) delete copy[key];
              else setOwnProperty(copy, key, next);
              onChange(copy);
            }}
          />
        ))}
      </fieldset>
    );
  }
  if (type === 'array') {
    const items = Array.isArray(value) ? value : [];
    const itemSchema = schema.items ?? {};
    return (
      <fieldset className="field">
        <legend>
          {shown(label)}
          {required && <span className="required"> *</span>}
        </legend>
        <Description schema={schema} />
        {items.map((item, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: array items are known by their place.
          <div className="array-item" key={index}>
            <Field
              schema={itemSchema}
              label={`${label} ${index + 1}`}
              required={false}
              path={`${path}[${index}]`}
              value={item}
              onChange={(next) => onChange(items.map((old, at) => (at === index ? next : old)))}
            />
            <button type="button" onClick={() => onChange(items.filter((_, at) => at !== index))}>
              Remove {shown(label)} {index + 1}
            </button>
          </div>
        ))}
        <button type="button" onClick={() => onChange([...items, initialValue(itemSchema)])}>
          Add {shown(label)}
        </button>
      </fieldset>
    );
  }
  if (type === 'boolean') {
    return (
      <div className="field">
        <label className="inline" htmlFor={id}>
          <input
            id={id}
            type="checkbox"
            checked={value === true}
            onChange={(event) => onChange(event.target.checked)}
          />{' '}
          {shown(label)}
          {required && <span className="required"> *</span>}
        </label>
        <Description schema={schema} />
      </div>
    );
  }
  if (type === 'number' || type === 'integer') {
    return (
      <div className="field">
        <Label label={label} required={required} htmlFor={id} />
        <Description schema={schema} />
        <input
          id={id}
          type="number"
          step={type === 'integer' ? 1 : 'any'}
          min={schema.minimum}
          max={schema.maximum}
          required={required}
          value={typeof value === 'number' ? value : ''}
          onChange={(event) => onChange(event.target.value === '' ? undefined : Number(event.target.value))}
        />
      </div>
    );
  }
  if (type === 'string') {
    return (
      <div className="field">
        <Label label={label} required={required} htmlFor={id} />
        <Description schema={schema} />
        <input
          id={id}
          type="text"
          required={required}
          value={typeof value === 'string' ? value : ''}
          onChange={(event) => onChange(event.target.value === '' && !required ? undefined : event.target.value)}
          {...hiddenCharactersMark(`${id}-hidden`, value, true)}
        />
        <HiddenCharactersNotice id={`${id}-hidden`} value={value} singleLine />
      </div>
    );
  }
  return <RawField {...props} />;
}

/** A value the form cannot express (no type, several types): typed as JSON. */
function RawField({ schema, value, onChange, label, required }: FieldProps) {
  const id = useId();
  const [text, setText] = useState(value === undefined ? '' : jsonShowingHiddenCharacters(value));
  const [error, setError] = useState<string>();
  return (
    <div className="field">
      <Label label={`${label} (JSON)`} required={required} htmlFor={id} />
      <Description schema={schema} />
      <input
        id={id}
        type="text"
        value={text}
        aria-invalid={error !== undefined}
        {...hiddenCharactersMark(`${id}-hidden`, text, true)}
        onChange={(event) => {
          setText(event.target.value);
          if (event.target.value === '') {
            setError(undefined);
            onChange(undefined);
            return;
          }
          try {
            onChange(JSON.parse(event.target.value));
            setError(undefined);
          } catch {
            setError('Not valid JSON yet.');
          }
        }}
      />
      <HiddenCharactersNotice id={`${id}-hidden`} value={text} singleLine />
      {error !== undefined && <div className="error">{error}</div>}
    </div>
  );
}

/** The whole arguments object: the generated form, or raw JSON. */
export function SchemaForm({
  schema,
  value,
  onChange,
}: {
  schema: Schema;
  value: Record<string, unknown>;
  onChange: (value: Record<string, unknown>) => void;
}) {
  const [raw, setRaw] = useState(false);
  const [text, setText] = useState('');
  const [error, setError] = useState<string>();
  const id = useId();
  return (
    <div className="schema-form">
      <label className="inline">
        <input
          type="checkbox"
          checked={raw}
          onChange={(event) => {
            setRaw(event.target.checked);
            setText(jsonShowingHiddenCharacters(value, 2));
            setError(undefined);
          }}
        />{' '}
        Raw JSON
      </label>
      {raw ? (
        <div className="field">
          <label htmlFor={id}>Arguments (JSON object)</label>
          <textarea
            id={id}
            rows={10}
            value={text}
            aria-invalid={error !== undefined}
            {...hiddenCharactersMark(`${id}-hidden`, text, false)}
            onChange={(event) => {
              setText(event.target.value);
              try {
                const parsed = JSON.parse(event.target.value) as unknown;
                if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error();
                onChange(parsed as Record<string, unknown>);
                setError(undefined);
              } catch {
                setError('The arguments must be a JSON object.');
              }
            }}
          />
          <HiddenCharactersNotice id={`${id}-hidden`} value={text} singleLine={false} />
          {error !== undefined && <div className="error">{error}</div>}
        </div>
      ) : (
        Object.entries(schema.properties ?? {}).map(([key, property]) => (
          <Field
            key={key}
            schema={property}
            label={property.title ?? key}
            required={schema.required?.includes(key) ?? false}
            path={key}
            value={ownValue(value, key)}
            onChange={(next) => {
              const copy = { ...value };
              if (next === undefined) delete copy[key];
              else setOwnProperty(copy, key, next);
              onChange(copy);
            }}
          />
        ))
      )}
    </div>
  );
}
