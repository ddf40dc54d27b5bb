/**
 * A tool result's text too long to hold in memory: the stdio transport writes it to a store as it arrives and hands
 * on a stand-in (its head, a notice, its tail) in the message. The facts kept here let the output budget cut the
 * text as if it were whole: its length, its cost and its two ends, and the id of the stored copy.
 *
 * A 100 MB text held as one string is, for a moment, held twice (the string is copied from the pieces it was
 * read in); kept out of memory it costs only its two ends.
 */

/** Where a long text goes as it arrives (the host's result store); `id` names the stored copy. */
export interface SpillWriter {
  readonly id: string;
  /** Appends text; written in the background, in order. */
  write(text: string): void;
  /** The text is complete. */
  end(): void;
  /** The text turned out not to be wanted (the line was not JSON, or was dropped): the stored copy is deleted. */
  abort(): void;
}

/** Opens a writer for a new stored text, or undefined when none can be kept (the caller then keeps it in memory). */
export type OpenSpill = () => SpillWriter | undefined;

export interface SpilledText {
  /** The stored copy's id. */
  id: string;
  /** The whole text's length, in UTF-16 code units. */
  length: number;
  /** How many of its code units are not ASCII (the budget's estimate counts them dearer). */
  nonAsciiUnits: number;
  /** Its size as UTF-8, in bytes. */
  utf8Bytes: number;
  /** Its first and last characters, as many as {@link SPILL_KEPT_EDGE_CHARS} each. */
  head: string;
  tail: string;
}

/** Texts longer than this (in characters) in a tool result from a stdio server are written out as they arrive. */
export const SPILL_MIN_CHARS = 8 * 1024 * 1024;
/**
 * How much of each end of a written-out text stays in memory: the most the model can be shown of it. 256 Ki
 * characters a side is about 128,000 tokens in all, beyond any per-result budget a model's context leaves room for.
 */
export const SPILL_KEPT_EDGE_CHARS = 256 * 1024;

/** Stand-ins not yet claimed by a budget; the oldest are let go, so results nobody budgets cannot pile up. */
const MAX_UNCLAIMED = 16;
const unclaimed = new Map<string, SpilledText>();

/** The text that stands in for a written-out one in the message: readable on its own by whoever gets it. */
export function spilledStandIn(facts: SpilledText): string {
  const omitted = facts.length - facts.head.length - facts.tail.length;
  const notice = `\n\n[… ${omitted.toLocaleString('en-US')} characters left out here: this text of ${facts.length.toLocaleString('en-US')} characters was too long to keep in memory; its full text is stored result ${facts.id}.]\n\n`;
  return facts.head + notice + facts.tail;
}

/** Remembers what a stand-in stands for, until {@link claimSpilledText} takes it. */
export function rememberSpilledText(standIn: string, facts: SpilledText): void {
  unclaimed.set(standIn, facts);
  if (unclaimed.size > MAX_UNCLAIMED) unclaimed.delete(unclaimed.keys().next().value as string);
}

/** The facts behind `text` when it is a stand-in not yet claimed. */
export function spilledTextOf(text: string): SpilledText | undefined {
  return unclaimed.size === 0 ? undefined : unclaimed.get(text);
}

/** As {@link spilledTextOf}, and forgets them, so each is budgeted once. */
export function claimSpilledText(text: string): SpilledText | undefined {
  const facts = spilledTextOf(text);
  if (facts !== undefined) unclaimed.delete(text);
  return facts;
}
