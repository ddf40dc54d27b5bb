/**
 * How a failed call is told: a connection that ended carries the exit the connection reported as it happened, so
 * the command line does not say it twice; a remote request that failed with nothing reported names its server.
 */
import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { toCallFailure } from '../../src/connections/describe-call-error.js';
import type { ServerExit } from '../../src/connections/server-exit.js';
import { freePort } from '../helpers/free-port.js';

const EXIT: ServerExit = { reason: 'crashed', exitCode: 3, description: 'server "fs" exited with code 3' };

function context(remote: boolean, reported: boolean) {
  return {
    server: 'fs',
    aborted: false,
    timeoutMs: 120_000,
    remote,
    exitOf: () => ({ exit: EXIT, reported }),
    answeredBy: () => undefined,
  };
}

describe('the words of a failed call', () => {
  it('carries the exit of a closed connection only when the connection reported it', () => {
    const closed = new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed');
    const reported = toCallFailure(closed, context(false, true));
    expect(reported).toMatchObject({ kind: 'crashed', message: EXIT.description, serverExit: EXIT });
    const unreported = toCallFailure(closed, context(false, false));
    expect(unreported.message).toBe(EXIT.description);
    expect(unreported.serverExit).toBeUndefined();
  });

  it('names the server of a remote request that failed', async () => {
    const port = await freePort();
    const error = await fetch(`http://127.0.0.1:${port}/mcp`).catch((caught: unknown) => caught);
    const failure = toCallFailure(error, context(true, false));
    expect(failure.kind).toBe('disconnected');
    expect(failure.message).toBe(
      `the request to server "fs" failed: fetch failed (connect ECONNREFUSED 127.0.0.1:${port})`,
    );
    expect(failure.serverExit).toBeUndefined();
  });
});
