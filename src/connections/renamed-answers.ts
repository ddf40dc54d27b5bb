/**
 * Whether a transport's answers held keys renamed on arrival (see keep-prototype-keys.ts), counted as they arrive: a
 * call during which none arrived has an answer with none, which then need not be walked again to name keys back,
 * neither for its `outputSchema` check nor for its caller. One per transport, shared by the wrapper that renames, the
 * client's validator and the connection's calls.
 */
export class RenamedAnswers {
  private count = 0;

  /** An answer with a renamed key arrived. */
  note(): void {
    this.count += 1;
  }

  /** Taken as a call starts, for `since`. */
  mark(): number {
    return this.count;
  }

  /**
   * Whether one arrived since `mark`: the call's answer, or another's while it ran (then it is walked all the same,
   * which changes nothing in an answer without renamed keys).
   */
  since(mark: number): boolean {
    return this.count !== mark;
  }

  /** Whether one ever arrived on this transport. */
  get any(): boolean {
    return this.count > 0;
  }
}
