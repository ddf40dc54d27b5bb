/**
 * `host.stream()`: a run as an async iterable of its events. Leaving the `for await` early aborts the run (as the
 * caller's own signal does) and waits for it to end, so no call is made after the consumer has gone.
 */
import { eventStream } from '../loop/event-stream.js';
import type { AgentEvent } from '../loop/events.js';
import { linkSignals } from '../loop/linked-signal.js';
import type { RunResult } from '../loop/run-agent.js';
import type { RunOptions } from './host-types.js';

export function streamRun(
  run: (prompt: string, options: RunOptions) => Promise<RunResult>,
  prompt: string,
  options: Omit<RunOptions, 'onEvent'> = {},
): AsyncIterable<AgentEvent> {
  return eventStream(async (emit, closed) => {
    if (!options.signal) return run(prompt, { ...options, onEvent: emit, signal: closed });
    const linked = linkSignals([options.signal, closed]);
    try {
      return await run(prompt, { ...options, onEvent: emit, signal: linked.signal });
    } finally {
      linked.dispose();
    }
  });
}
