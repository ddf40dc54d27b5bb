/**
 * A gateway closed while one of its profiles is still starting closes that profile's host once it has started, and
 * leaves nothing of it running: no retries of its failed servers, which would look at the closed host for ever. A
 * real profile host in this process; the retries' timer, on fake timers, is what is counted.
 */
import { afterEach, expect, it, vi } from 'vitest';
import { createGatewayHosts } from '../../src/gateway/gateway-hosts.js';
import { hostConfig } from '../helpers/configs.js';
import { temporaryDirectory } from '../helpers/project.js';

afterEach(() => {
  vi.useRealTimers();
});

it('starts no retries of failed servers for a profile still starting as the gateway closes', async () => {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  const hosts = createGatewayHosts(hostConfig([]), { stateDir: await temporaryDirectory('mcp-host-close-starting-') });
  const starting = hosts.get(undefined);
  await hosts.close();
  await starting;
  expect(vi.getTimerCount()).toBe(0);
});
