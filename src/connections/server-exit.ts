/**
 * How a server went away without the host asking, as parts (for the audit log, where a script filters on the signal
 * or the exit code) and as the sentence stderr shows. Built once from the process's exit, never parsed back.
 */
import type { ProcessExit } from './process-group-stdio-transport.js';

/** What a stdio server did that leaves its process running with nothing to answer through. */
export const OUTPUT_CLOSED_WHILE_RUNNING = 'closed its output (stdout) while still running';

export interface ServerExit {
  /**
   * `crashed`: killed by a signal or a non-zero exit code; `exited`: code 0 (or none); `disconnected`: no exit of its
   * own seen (a remote server, or a process that closed its output and was then stopped by the host).
   */
  reason: 'crashed' | 'exited' | 'disconnected';
  exitCode?: number;
  signal?: string;
  /** The last lines the server wrote to stderr, secrets redacted. */
  stderrTail?: string;
  /** `server "fs" was killed by SIGKILL; stderr tail:\n…`, secrets redacted. */
  description: string;
}

interface ServerExitFacts {
  server: string;
  /** The process's exit, when the server is a process the host started. */
  exit?: ProcessExit;
  stderrTail?: string;
  /** Why the host closed the connection itself, when it did (e.g. an oversized message). */
  closeReason?: string;
  /** The process closed its stdout and ran on; its exit, if known by now, is the host's stopping it. */
  outputClosedWhileRunning?: boolean;
  redact: (text: string) => string;
}

/** How a process ended, after its server's name: `was killed by SIGKILL`, `exited with code 3`. */
export function exitWords(exit: ProcessExit): string {
  return exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
}

export function serverExit(facts: ServerExitFacts): ServerExit {
  const exit = facts.outputClosedWhileRunning ? undefined : facts.exit;
  const how = facts.outputClosedWhileRunning
    ? `${OUTPUT_CLOSED_WHILE_RUNNING}, so no answer could come; the host closed the connection and stopped the process`
    : exit
      ? exitWords(exit)
      : 'closed the connection';
  const what = facts.closeReason ? `${facts.closeReason}; its process then ${exit ? how : 'ended'}` : how;
  const tail = facts.stderrTail ? facts.redact(facts.stderrTail) : undefined;
  const exitCode = exit?.signal ? undefined : (exit?.code ?? undefined);
  const reason =
    exit?.signal || (exitCode !== undefined && exitCode !== 0) ? 'crashed' : exit ? 'exited' : 'disconnected';
  return {
    reason,
    ...(exitCode === undefined ? {} : { exitCode }),
    ...(exit?.signal ? { signal: exit.signal } : {}),
    ...(tail ? { stderrTail: tail } : {}),
    description: facts.redact(
      `server "${facts.server}" ${what}${facts.stderrTail ? `; stderr tail:\n${facts.stderrTail}` : ''}`,
    ),
  };
}
