/**
 * Finds what a `$ref` points to inside the tool's own schema document.
 *
 * Servers write references three ways: `#/$defs/X` (2020-12), `#/definitions/X` (draft-07, what many
 * generators still emit) and arbitrary pointers such as `#` (the whole schema, for recursive trees)
 * or `#/properties/a`. Each resolved target becomes a named definition, so targets that keep
 * references can point into one root `$defs`, and targets that inline them can bound recursion.
 * Remote references (`https://…`) cannot be fetched offline and are reported as unresolved.
 */

import { isPlainObject, type JsonObject } from './json-value.js';

export interface SchemaDefinition {
  /** The JSON pointer (without `#`) the definition was found at; unique per definition. */
  readonly pointer: string;
  /** The name it gets in the output's root `$defs`. */
  readonly name: string;
  /** The original (not yet normalised) schema; shared, never mutated. */
  readonly schema: unknown;
}

export class DefinitionRegistry {
  private readonly byPointer = new Map<string, SchemaDefinition>();
  /** Each `$ref` text resolved so far (undefined when it points nowhere): a long one is decoded and walked once. */
  private readonly byReference = new Map<string, SchemaDefinition | undefined>();
  private readonly usedNames = new Set<string>();

  constructor(private readonly document: JsonObject) {}

  /** The definition a `$ref` names, or undefined when it is remote, malformed or points nowhere. */
  resolve(reference: string): SchemaDefinition | undefined {
    if (this.byReference.has(reference)) return this.byReference.get(reference);
    const definition = this.resolveUncached(reference);
    this.byReference.set(reference, definition);
    return definition;
  }

  private resolveUncached(reference: string): SchemaDefinition | undefined {
    const pointer = fragmentPointer(reference);
    if (pointer === undefined) return undefined;
    const known = this.byPointer.get(pointer);
    if (known) return known;
    const segments = pointer === '' ? [] : pointer.slice(1).split('/').map(unescapeSegment);
    let target: unknown = this.document;
    for (const segment of segments) {
      if (Array.isArray(target)) target = target[Number(segment)];
      else if (isPlainObject(target)) target = Object.hasOwn(target, segment) ? target[segment] : undefined;
      else target = undefined;
      if (target === undefined) return undefined;
    }
    if (!isPlainObject(target) && typeof target !== 'boolean') return undefined;
    const definition = { pointer, name: this.uniqueName(nameHint(segments, this.document)), schema: target };
    this.byPointer.set(pointer, definition);
    return definition;
  }

  private uniqueName(hint: string): string {
    const base = hint.replace(/[^A-Za-z0-9_.-]/g, '_') || 'Definition';
    let name = base;
    for (let suffix = 2; this.usedNames.has(name); suffix += 1) name = `${base}_${suffix}`;
    this.usedNames.add(name);
    return name;
  }
}

/** `#/a/b` → `/a/b`, `#` → `` (the root); anything else (remote, `#anchor`) → undefined. */
function fragmentPointer(reference: string): string | undefined {
  if (!reference.startsWith('#')) return undefined;
  let fragment: string;
  try {
    fragment = decodeURIComponent(reference.slice(1));
  } catch {
    return undefined;
  }
  if (fragment === '' || fragment.startsWith('/')) return fragment;
  return undefined;
}

function unescapeSegment(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

function nameHint(segments: string[], document: JsonObject): string {
  if (segments.length === 0) return typeof document.title === 'string' ? document.title : 'Root';
  const [container, name] = segments;
  if (segments.length === 2 && (container === '$defs' || container === 'definitions') && name) return name;
  return segments.filter((segment) => segment !== 'properties').join('_');
}
