/**
 * An audit log that stops taking records while the host runs (a full disk, here a file-size limit the log has grown
 * past): a server's exit and the review of its tools after its restart cannot be recorded. The gateway (the built
 * CLI's `mcp-host serve`, as a process of its own) says so on stderr and goes on serving: a failed write left to
 * reject with nobody waiting on it would end the process (Node 20 ends it on an unhandled rejection).
 */
import { appendFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterEach, describe, expect, it } from 'vitest';
import { bundledCliPath, fixtureServer, temporaryDirectory, writeConfig } from '../helpers/project.js';
import { textOf } from '../helpers/text-of.js';
import { waitUntil } from '../helpers/wait-until.js';

/** In blocks of 512 bytes (POSIX `ulimit -f`): room for the trust store and the records written at start-up. */
const FILE_SIZE_LIMIT_BLOCKS = 64;

let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});

describe('an audit log that can no longer be written', () => {
  it("tells of a server's exit and of its tools' review that were not recorded, and the gateway goes on", async () => {
    const stateDir = await temporaryDirectory('mcp-host-audit-write-fails-');
    const restartedFile = join(stateDir, 'server-exited');
    const config = await writeConfig({
      mcpServers: {
        crash: {
          command: process.execPath,
          args: [fixtureServer('crash-mid-call.mjs')],
          // Started again once this file exists, the server lists `ping` with another description.
          env: { CHANGED_AFTER_EXIT: '1', EXITED_ONCE_FILE: restartedFile },
        },
      },
      permissions: { allow: ['crash__ping'] },
    });
    // The limit holds for every file the gateway writes: past it a write fails with EFBIG (Node ignores SIGXFSZ).
    const transport = new StdioClientTransport({
      command: '/bin/sh',
      args: [
        '-c',
        `ulimit -f ${FILE_SIZE_LIMIT_BLOCKS} && exec "$0" "$@"`,
        process.execPath,
        bundledCliPath(),
        'serve',
        '--config',
        config,
        '--state-dir',
        stateDir,
      ],
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk) => {
      stderr += String(chunk);
    });
    let exitedEarly = false;
    client = new Client({ name: 'audit-write-fails-test', version: '1.0.0' });
    client.onclose = () => {
      exitedEarly = true;
    };
    await client.connect(transport);

    const pong = textOf(await client.callTool({ name: 'crash__ping', arguments: {} }));
    const serverPid = Number(/^pong (\d+)$/.exec(pong)?.[1]);
    expect(serverPid).toBeGreaterThan(0);

    // The log grows past the limit: the next record the gateway appends does not fit.
    const auditFile = join(stateDir, 'audit.jsonl');
    const padding = FILE_SIZE_LIMIT_BLOCKS * 512 - statSync(auditFile).size;
    appendFileSync(auditFile, `${JSON.stringify({ padding: 'x'.repeat(Math.max(0, padding)) })}\n`);
    writeFileSync(restartedFile, 'exited\n');
    process.kill(serverPid, 'SIGKILL');

    const exitNotRecorded = 'the exit of server "crash" was not recorded: could not append to the audit log';
    const reviewNotRecorded = 'server "crash" could not re-list its tools: could not append to the audit log';
    await waitUntil(
      () => exitedEarly || (stderr.includes(exitNotRecorded) && stderr.includes(reviewNotRecorded)),
      'the gateway to tell of both records it could not write',
      30_000,
    );
    expect(exitedEarly, stderr).toBe(false);
    expect(stderr).toContain(`${exitNotRecorded} ${auditFile} (EFBIG)`);
    expect(stderr).toContain(`${reviewNotRecorded} ${auditFile} (EFBIG)`);

    // Still serving: it lists the tools, and a call, whose own record cannot be written either, is answered so.
    expect((await client.listTools()).tools.some((tool) => tool.name.startsWith('crash__'))).toBe(true);
    await expect(client.callTool({ name: 'crash__ping', arguments: {} })).rejects.toThrow(
      `could not append to the audit log ${auditFile} (EFBIG)`,
    );
    expect(exitedEarly, stderr).toBe(false);
  }, 60_000);
});
