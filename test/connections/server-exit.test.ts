/** A server's unexpected exit as parts and as one sentence, both from the same facts. */
import { describe, expect, it } from 'vitest';
import { serverExit } from '../../src/connections/server-exit.js';

const keep = (text: string) => text;

describe('serverExit', () => {
  it('names the signal of a killed server, with its stderr tail, as a crash', () => {
    const exit = serverExit({
      server: 'fs',
      exit: { code: null, signal: 'SIGKILL' },
      stderrTail: 'out of memory',
      redact: keep,
    });
    expect(exit).toEqual({
      reason: 'crashed',
      signal: 'SIGKILL',
      stderrTail: 'out of memory',
      description: 'server "fs" was killed by SIGKILL; stderr tail:\nout of memory',
    });
  });

  it('tells a non-zero exit code (a crash) from code 0 (an exit)', () => {
    expect(serverExit({ server: 'a', exit: { code: 3, signal: null }, redact: keep })).toEqual({
      reason: 'crashed',
      exitCode: 3,
      description: 'server "a" exited with code 3',
    });
    expect(serverExit({ server: 'a', exit: { code: 0, signal: null }, redact: keep })).toMatchObject({
      reason: 'exited',
      exitCode: 0,
    });
  });

  it("says the connection closed when no process was seen, and gives the host's own reason first", () => {
    expect(serverExit({ server: 'web', redact: keep })).toEqual({
      reason: 'disconnected',
      description: 'server "web" closed the connection',
    });
    expect(serverExit({ server: 'big', closeReason: 'sent a message over the limit', redact: keep }).description).toBe(
      'server "big" sent a message over the limit; its process then ended',
    );
  });

  it('says a server closed its output while running, not the signal the host then stopped it with', () => {
    expect(
      serverExit({
        server: 'co',
        exit: { code: null, signal: 'SIGTERM' },
        outputClosedWhileRunning: true,
        stderrTail: 'closed stdout',
        redact: keep,
      }),
    ).toEqual({
      reason: 'disconnected',
      stderrTail: 'closed stdout',
      description:
        'server "co" closed its output (stdout) while still running, so no answer could come; the host closed the connection and stopped the process; stderr tail:\nclosed stdout',
    });
  });

  it('redacts secrets from the sentence and from the stderr tail alike', () => {
    const redact = (text: string) => text.replaceAll('hunter22', '[REDACTED]');
    const exit = serverExit({
      server: 'db',
      exit: { code: 1, signal: null },
      stderrTail: 'login hunter22 refused',
      redact,
    });
    expect(exit.stderrTail).toBe('login [REDACTED] refused');
    expect(exit.description).not.toContain('hunter22');
  });
});
