/**
 * A server that was not connected when the gateway's clients set a level (it died, and its new process was still
 * starting) is asked for that level once it is up, once whatever the number of clients that set one meanwhile, and
 * not for the level its session before had. Official v2 SDK clients in front of the built CLI, the forwarding fixture
 * server (which answers every level it was asked for) behind it, its start held back by a file the test creates.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFixtureServersConfig } from '../helpers/fixture-servers-config.js';
import { callForwarding } from '../helpers/forwarding-fixture.js';
import { waitUntil } from '../helpers/gateway-process.js';
import { temporaryDirectory } from '../helpers/project.js';
import { startTokenGateway, type TokenGateway } from '../helpers/token-gateway.js';

describe('the log level a gateway asks of a server that connects after it was set', () => {
  let gateway: TokenGateway;
  let startGate: string;
  let startedFile: string;

  beforeAll(async () => {
    const folder = await temporaryDirectory('mcp-host-level-late-server-');
    startGate = join(folder, 'start');
    startedFile = join(folder, 'started');
    await writeFile(startGate, '');
    const config = await writeFixtureServersConfig({
      forwarding: { file: 'forwarding.mjs', env: { START_GATE: startGate, STARTED_FILE: startedFile } },
    });
    gateway = await startTokenGateway(config, join(folder, 'state'));
  }, 90_000);

  afterAll(async () => {
    // A server held at its start reads no stdin: let it go, so that it ends with the gateway.
    if (startGate !== undefined) await writeFile(startGate, '');
    await gateway?.stop();
  });

  const connect = (name: string) => gateway.connectNamed(name);
  const call = callForwarding;
  const startedPid = async () => Number((await readFile(startedFile, 'utf8').catch(() => '')).trim());

  it('asks the server for the level once it is up, once', async () => {
    const first = await connect('first-client');
    const second = await connect('second-client');
    await first.setLoggingLevel('warning');
    expect(await call(first, 'levels_asked')).toBe('warning');

    // The server dies; the process the gateway starts in its place is held before it serves.
    const before = Number(await call(first, 'pid'));
    await rm(startGate);
    process.kill(before, 'SIGKILL');
    await waitUntil(async () => {
      const pid = await startedPid();
      return pid > 0 && pid !== before;
    }, 'the server to be starting again');

    await first.setLoggingLevel('info');
    await second.setLoggingLevel('debug');
    await writeFile(startGate, '');
    await waitUntil(async () => {
      // A call failing on the dead process answers an error text, not a pid: only a new pid means it is back.
      const after = Number(await call(first, 'pid').catch(() => undefined));
      return Number.isInteger(after) && after > 0 && after !== before;
    }, 'the server to be up again');
    expect(await call(first, 'levels_asked')).toBe('debug');
  }, 90_000);
});
