/**
 * The views on the page now, so the app can tear each down (and let it answer) before the page that holds it is
 * replaced: a view gets `ui/resource-teardown` while it still exists, not after its frame is gone.
 */
const live = new Set<() => Promise<void>>();
/** How long a view may take to answer its teardown before it is removed anyway. */
export const TEARDOWN_WAIT_MS = 2_000;

export function registerView(teardown: () => Promise<void>): () => void {
  live.add(teardown);
  return () => {
    live.delete(teardown);
  };
}

export async function teardownViews(): Promise<void> {
  await Promise.all([...live].map((teardown) => teardown().catch(() => undefined)));
}
