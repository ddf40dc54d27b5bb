/**
 * Ctrl-C and SIGTERM for every command that starts servers. Node's default action for these signals ends the
 * process at once, without closing anything: a server's own process sees its stdin close, but whatever it
 * started (the real server behind `npx` or a shell) lives on. Here the first signal cancels what is in flight
 * and lets the command close its servers as usual; during start-up, with nothing yet to cancel, it stops the
 * servers being started. A second signal stops every server process group at once and exits.
 */
import { stopAllServerProcessesNow } from '../connections/server-process-registry.js';
import type { Host } from '../host/create-host.js';
import { EXIT_SIGINT, EXIT_SIGTERM } from './exit-codes.js';
import { writeError } from './output.js';

const SIGNAL_EXIT_CODES: Record<'SIGINT' | 'SIGTERM', number> = { SIGINT: EXIT_SIGINT, SIGTERM: EXIT_SIGTERM };

interface Interruption {
  /** Aborted by the first SIGINT or SIGTERM. */
  readonly signal: AbortSignal;
  /** 130 after SIGINT, 143 after SIGTERM; undefined while not interrupted. */
  readonly exitCode: number | undefined;
  /** The servers are up and the command will close them itself: from now on a first signal only cancels. */
  serversOpened(): void;
  /** Removes the signal handlers; call it in the command's `finally`. */
  dispose(): void;
}

export function handleInterruptions(): Interruption {
  const controller = new AbortController();
  let exitCode: number | undefined;
  let opened = false;
  const onSignal = (signal: 'SIGINT' | 'SIGTERM') => {
    if (exitCode !== undefined) {
      writeError(`mcp-host: ${signal} again; stopping every server now`);
      stopAllServerProcessesNow();
      process.exit(exitCode);
    }
    exitCode = SIGNAL_EXIT_CODES[signal];
    writeError(`mcp-host: ${signal}; cancelling calls in flight and closing servers (send it again to force)`);
    controller.abort(new Error(`interrupted by ${signal}`));
    // Still starting: nothing to cancel politely, and start-up could take until its timeout.
    if (!opened) stopAllServerProcessesNow();
  };
  const onInterrupt = () => onSignal('SIGINT');
  const onTerminate = () => onSignal('SIGTERM');
  process.on('SIGINT', onInterrupt);
  process.on('SIGTERM', onTerminate);
  return {
    signal: controller.signal,
    get exitCode() {
      return exitCode;
    },
    serversOpened() {
      opened = true;
    },
    dispose() {
      process.off('SIGINT', onInterrupt);
      process.off('SIGTERM', onTerminate);
    },
  };
}

/**
 * Opens a host, runs `work` with it and always closes it; a signal stops start-up or cancels `work` (both get
 * `signal`), closes
 * the servers and sets the exit code to 130 (SIGINT) or 143 (SIGTERM).
 */
export async function withInterruptibleHost(
  open: (signal: AbortSignal) => Promise<Host>,
  work: (host: Host, signal: AbortSignal) => Promise<void>,
): Promise<void> {
  const interruption = handleInterruptions();
  try {
    const host = await open(interruption.signal);
    interruption.serversOpened();
    try {
      if (!interruption.signal.aborted) await work(host, interruption.signal);
    } finally {
      await host.close();
    }
  } catch (error) {
    // Whatever failed after the signal failed because of it; the signal is what the caller should see.
    if (interruption.exitCode === undefined) throw error;
  } finally {
    interruption.dispose();
  }
  if (interruption.exitCode !== undefined) process.exitCode = interruption.exitCode;
}
