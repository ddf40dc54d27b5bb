/**
 * The mock LLM server as provider tests use it: one server for a describe block (started before its tests, closed
 * after them, its recorded requests cleared before each test), and a base URL where nothing listens.
 */
import { afterAll, beforeAll, beforeEach } from 'vitest';
import {
  type MockLlmServer,
  type MockLlmServerOptions,
  startMockLlmServer,
} from '../../src/testing/mock-llm/mock-llm-server.js';

/** The running server's address and recorded requests; read inside a test or hook, not while collecting tests. */
export type MockLlmServerHandle = Omit<MockLlmServer, 'close'>;

/**
 * Starts a mock LLM server for the enclosing describe block (or file) and closes it after. Each test starts with an
 * empty `requests` unless `keepRequests` is set.
 */
export function useMockLlmServer(
  options: MockLlmServerOptions,
  { keepRequests = false }: { keepRequests?: boolean } = {},
): MockLlmServerHandle {
  let started: MockLlmServer | undefined;
  beforeAll(async () => {
    started = await startMockLlmServer(options);
  });
  afterAll(async () => {
    await started?.close();
    started = undefined;
  });
  if (!keepRequests) {
    beforeEach(() => {
      if (started) started.requests.length = 0;
    });
  }
  const running = (): MockLlmServer => {
    if (!started) throw new Error('the mock LLM server is not running: use it inside a test or hook');
    return started;
  };
  return {
    get url() {
      return running().url;
    },
    get port() {
      return running().port;
    },
    get requests() {
      return running().requests;
    },
  };
}

/** The base URL of a mock LLM server that was started and closed again: a port nothing listens on. */
export async function unreachableBaseUrl(): Promise<string> {
  const closed = await startMockLlmServer({ script: { scenarios: [] } });
  await closed.close();
  return closed.url;
}
