/**
 * Results that break the `tools/call` result schema or the tool's declared `outputSchema` fail that call with the
 * reason, while well-formed results on the same server go through: the checks hold on every path a call can take.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Host } from '../../src/host/create-host.js';
import { hostConfig, stdioServer } from '../helpers/configs.js';
import { closeHosts, faultFixture, openFaultHost, resultText } from './fault-helpers.js';

let host: Host;

beforeAll(async () => {
  host = await openFaultHost(hostConfig([stdioServer('bad', [faultFixture('hostile-server.mjs'), 'malformed'])]));
});
afterAll(closeHosts);

describe('a malformed tool result', () => {
  it('is refused when its content is not a list, its isError not a boolean, or an item is not valid content', async () => {
    for (const tool of ['bad_content', 'bad_error_flag', 'bad_text', 'bad_item']) {
      const call = await host.callTool(`bad__${tool}`, {});
      expect(call.outcome, tool).toBe('error');
      expect(call.result.isError, tool).toBe(true);
      expect(resultText(call.result), tool).toMatch(/the server's result is not a valid tools\/call result: /);
    }
  });

  it("is refused when its structuredContent does not match the tool's outputSchema, or is missing", async () => {
    const mismatch = await host.callTool('bad__bad_structured', {});
    expect(mismatch.outcome).toBe('error');
    expect(resultText(mismatch.result)).toMatch(/the server's result does not match the tool's outputSchema: /);
    const missing = await host.callTool('bad__no_structured', {});
    expect(missing.outcome).toBe('error');
    expect(resultText(missing.result)).toMatch(
      /the server's result has no structuredContent, which the tool's outputSchema requires/,
    );
  });

  it('leaves the well-formed results of the same server alone', async () => {
    const structured = await host.callTool('bad__good_structured', {});
    expect(structured.outcome).toBe('ok');
    expect(resultText(structured.result)).toBe('{"count":3}');
    const echo = await host.callTool('bad__echo', { text: 'fine' });
    expect(echo.result).toMatchObject({ isError: false, content: [{ type: 'text', text: 'fine' }] });
    const annotated = await host.callTool('bad__annotated', {});
    expect(annotated.outcome).toBe('ok');
    expect(resultText(annotated.result)).toBe('noted');
  });
});
