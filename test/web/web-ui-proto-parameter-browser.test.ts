/**
 * The web UI in Chromium against a server whose tool takes a parameter named `__proto__` (at most 5 characters):
 * the form generated from its schema fills in that parameter as the key it is (assigned, it would set the
 * arguments' prototype and vanish), so the server gets it, and a value past its rules is refused by the host.
 */
import { describe, expect, it } from 'vitest';
import { faultFixture } from '../faults/fault-helpers.js';
import { goToUiPage } from '../helpers/go-to-ui-page.js';
import { writeConfig } from '../helpers/project.js';
import { startUiInChromium, useAroundTests } from '../helpers/web-ui-in-chromium.js';

const WAIT = { timeout: 15_000 };
const TOOL = 'hostile__proto_parameter';

const running = useAroundTests(async () => {
  const hostile = {
    command: process.execPath,
    args: [faultFixture('hostile-server.mjs'), 'proto-schema'],
    trust: 'trusted',
  };
  return startUiInChromium(['--config', await writeConfig({ mcpServers: { hostile } })]);
});

/** Calls the tool with `value` typed into its `__proto__` field; the result's text once it shows `expected`. */
async function callWith(value: string, expected: string): Promise<string> {
  const { page } = running();
  await page.getByRole('textbox', { name: /^__proto__/ }).fill(value);
  await page.getByRole('button', { name: `Call ${TOOL}` }).click();
  const result = page.getByRole('region', { name: 'Result' });
  await result.getByText(expected, { exact: false }).first().waitFor(WAIT);
  return (await result.textContent()) ?? '';
}

describe('a tool parameter named __proto__ in the web form', () => {
  it('reaches the server as the key it is, and a value past its rules is refused', async () => {
    const { page } = running();
    await goToUiPage(page, 'Tools', WAIT);
    await page.getByRole('button', { name: new RegExp(`^${TOOL}`) }).click();
    await page.getByRole('heading', { level: 2, name: TOOL }).waitFor(WAIT);

    expect(await callWith('abc', '"abc"')).toContain('{"__proto__":"abc"}');
    expect(await callWith('toolong', 'must NOT')).toContain('__proto__: must NOT have more than 5 characters');
  }, 60_000);
});
