/**
 * One abort signal that follows several others. Node 20 keeps every `AbortSignal.any` composite alive as long as its
 * sources live, so a long-lived source (a conversation's, a server's) would gain one per turn; this one is released
 * by `dispose()`.
 */
interface LinkedSignal {
  /** Aborts the linked signal itself (the sources are left alone). */
  readonly controller: AbortController;
  readonly signal: AbortSignal;
  /** Stops following the sources (call when the work ends). */
  dispose(): void;
}

export function linkSignals(sources: readonly AbortSignal[]): LinkedSignal {
  const controller = new AbortController();
  const forward = (event: Event) => controller.abort((event.target as AbortSignal).reason);
  for (const source of sources) {
    if (source.aborted) controller.abort(source.reason);
    else source.addEventListener('abort', forward, { once: true });
  }
  return {
    controller,
    signal: controller.signal,
    dispose: () => {
      for (const source of sources) source.removeEventListener('abort', forward);
    },
  };
}
