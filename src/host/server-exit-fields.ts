/**
 * The audit record of a server that went away without the host asking. The connection reports that moment as one
 * sentence (`server "fs" was killed by SIGKILL; stderr tail:\n…`), which is what stderr shows; the audit log wants
 * the parts as fields, so a script can filter on the signal or the exit code.
 */
import type { ServerExitRecord } from '../audit/audit-record.js';

type ServerExitFields = Omit<ServerExitRecord, 'type' | 'time' | 'runId'>;

const STDERR_TAIL_MARKER = '; stderr tail:\n';

export function serverExitFields(server: string, description: string): ServerExitFields {
  const cut = description.indexOf(STDERR_TAIL_MARKER);
  const summary = cut < 0 ? description : description.slice(0, cut);
  const stderrTail = cut < 0 ? undefined : description.slice(cut + STDERR_TAIL_MARKER.length);
  const killed = /\bwas killed by (\w+)/.exec(summary);
  const exited = /\bexited with code (-?\d+|null)/.exec(summary);
  const code = exited?.[1] === undefined || exited[1] === 'null' ? undefined : Number(exited[1]);
  const reason = killed !== null || (code !== undefined && code !== 0) ? 'crashed' : exited ? 'exited' : 'disconnected';
  return {
    server,
    reason,
    ...(killed?.[1] === undefined ? {} : { signal: killed[1] }),
    ...(code === undefined ? {} : { exitCode: code }),
    ...(stderrTail ? { stderrTail } : {}),
  };
}
