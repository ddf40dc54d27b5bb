/**
 * A resource read by the model goes through the output budget like a tool result: past the budget it is cut
 * with a notice, its full text is kept, and `read_stored_result` reads the rest.
 */
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../../src/host/create-host.js';
import { createScriptedProvider } from '../../src/testing/scripted-provider.js';
import { hostConfig, stdioServer } from '../helpers/configs.js';
import { packageBin, textOf, unattendedHostOptions } from './helpers.js';

const everything = packageBin('@modelcontextprotocol/server-everything');
const document = 'demo://resource/static/document/structure.md';

let host: Host;
beforeAll(async () => {
  host = await createHost({
    config: hostConfig([stdioServer('everything', [everything, 'stdio'], { trust: 'trusted' })]),
    maxResultTokens: 200,
    provider: createScriptedProvider({ scenarios: [{ turns: [{ text: 'ok' }] }] }),
    ...(await unattendedHostOptions()),
  });
}, 60_000);
afterAll(async () => {
  await host?.close();
});

describe('resource reads and the output budget', () => {
  it('cuts a long resource with a notice and keeps the whole text for read_stored_result', async () => {
    const whole = await readFile(join(dirname(everything), 'docs', 'structure.md'), 'utf8');
    expect(whole.length).toBeGreaterThan(5_000);
    const read = await host.callTool('mcp-host__everything__read_resource', { uri: document });
    expect(read.result.isError).toBe(false);
    const text = textOf(read.result);
    expect(text.length).toBeLessThan(2_000);
    expect(text.startsWith(`[resource ${document} (text/markdown)]\n${whole.slice(0, 100)}`)).toBe(true);
    const id = /call the tool `mcp-host__read_stored_result` with id "(res_[\w-]+)"/.exec(text)?.[1];
    expect(id, text).toBeDefined();

    // The model is offered `read_stored_result` from the next turn on.
    await host.run('next turn');
    expect(host.toolDefinitions().map((tool) => tool.name)).toContain('mcp-host__read_stored_result');
    const rest = await host.callTool('mcp-host__read_stored_result', { id, offset: 0, length: 100_000 });
    expect(rest.result.isError, textOf(rest.result)).toBe(false);
    expect(textOf(rest.result)).toContain(whole.slice(-200));
  });

  it('answers an unknown URI with an error result that says how to list resources', async () => {
    const read = await host.callTool('mcp-host__everything__read_resource', {
      uri: 'demo://resource/static/document/nope.md',
    });
    expect(read.result.isError).toBe(true);
    expect(textOf(read.result)).toMatch(
      /^Could not read demo:\/\/resource\/static\/document\/nope\.md from "everything": .*List the resources with mcp-host__everything__list_resources\.$/,
    );
  });
});
