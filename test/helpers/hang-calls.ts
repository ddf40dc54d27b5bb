/** Waiting in the web UI's tests for calls of the hang fixture's tool that never answers. */
import type { ServerView } from '../../src/web/api-types.js';
import { waitUntil } from './wait-until.js';
import { callUiApi, type RunningUi } from './web-ui-process.js';

/**
 * Waits until the UI's server `server` (the hang fixture) has been sent `count` calls of its tool that never answers:
 * its stderr says each as it starts.
 */
export async function waitForHangCalls(ui: RunningUi, count: number, server = 'waits'): Promise<void> {
  await waitUntil(async () => {
    const servers = (await callUiApi<ServerView[]>(ui, '/api/servers')).body;
    const stderr = servers.find((shown) => shown.name === server)?.stderrTail ?? '';
    return (stderr.match(/^call \S+ hang$/gm) ?? []).length >= count;
  }, `the server to be sent call ${count} of the tool that never answers`);
}
