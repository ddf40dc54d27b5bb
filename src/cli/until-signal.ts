/**
 * Waits for the first of some signals, for a command that runs until it is stopped (`mock-llm`). The handlers for
 * every one of them are removed once one came: a `once` handler left on the other would outlive the wait.
 */
export function untilSignal(signals: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM']): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals): void => {
      for (const each of signals) process.off(each, stop);
      resolve(signal);
    };
    for (const each of signals) process.on(each, stop);
  });
}
