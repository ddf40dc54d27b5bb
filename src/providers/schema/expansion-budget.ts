/**
 * Bounds the work of resolving a tool schema's `$ref`s and `allOf`s.
 *
 * A server's schema of modest size can name definitions that name others: a chain of 100,000 (`a0` → `a1` → …) or
 * a definition used twice at each of 40 levels, which inlining would copy 2^40 times. Each step of resolution (a
 * reference followed, a node normalised inside a definition) is counted here, and references followed one inside
 * another are bounded, so such a schema is refused with a {@link SchemaExpansionError} instead of overflowing the
 * stack, taking minutes, or filling memory.
 */

/** Steps (references followed, nodes normalised inside definitions) one tool schema may take. */
export const MAX_SCHEMA_EXPANSION_STEPS = 20_000;
/** Pairs of values compared while `allOf` parts are merged (two enums of 1,000 values intersect in 1,000,000). */
export const MAX_SCHEMA_COMPARISONS = 2_000_000;
/** References followed one inside another (a definition whose `$ref` or `allOf` names the next…). */
export const MAX_REFERENCE_CHAIN = 64;

/** Thrown when a schema's resolution passes a bound; the message says which, and names the tool when known. */
export class SchemaExpansionError extends RangeError {
  constructor(readonly exceeded: string) {
    super(exceeded);
    this.name = 'SchemaExpansionError';
  }

  /** The same refusal naming what held the schema (`the input schema of tool "x"`). */
  naming(what: string): SchemaExpansionError {
    const named = new SchemaExpansionError(this.exceeded);
    named.message = `${what} ${this.exceeded}`;
    return named;
  }
}

export class ExpansionBudget {
  private steps = 0;
  private comparisons = 0;

  /** Counts one pair of values compared; throws past {@link MAX_SCHEMA_COMPARISONS}. */
  readonly compared = (): void => {
    this.comparisons += 1;
    if (this.comparisons > MAX_SCHEMA_COMPARISONS) {
      throw new SchemaExpansionError(`takes more than ${MAX_SCHEMA_COMPARISONS} comparisons while its allOf is merged`);
    }
  };

  /** Counts one step; throws once the schema has taken more than {@link MAX_SCHEMA_EXPANSION_STEPS}. */
  step(): void {
    this.steps += 1;
    if (this.steps > MAX_SCHEMA_EXPANSION_STEPS) {
      throw new SchemaExpansionError(
        `expands past ${MAX_SCHEMA_EXPANSION_STEPS} steps while its $ref and allOf are resolved`,
      );
    }
  }

  /** Throws when `length` references are being followed one inside another, more than {@link MAX_REFERENCE_CHAIN}. */
  checkChain(length: number): void {
    if (length > MAX_REFERENCE_CHAIN) {
      throw new SchemaExpansionError(
        `chains more than ${MAX_REFERENCE_CHAIN} $ref or allOf references one inside another`,
      );
    }
  }
}
