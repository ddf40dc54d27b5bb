// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${env:VAR}` is the config syntax the messages show.
/**
 * Mistakes in the config's `gateway` section are said in the config's own words, by the real CLI: a token too short
 * names the bound (not the schema library's "Invalid input"), and a key the section does not take is named beside
 * the keys it does.
 */
import { describe, expect, it } from 'vitest';
import { runCli, writeConfig } from '../helpers/project.js';

describe('gateway section errors', () => {
  it('a token too short names the bound and how to write one', async () => {
    const config = await writeConfig({ gateway: { tokens: [{ name: 'team', token: 'short' }] }, mcpServers: {} });
    const result = await runCli(['servers', '--config', config]);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toBe(
      `mcp-host: ${config}: gateway.tokens[0].token: expected a token of at least 16 characters, e.g. "\${env:GATEWAY_TOKEN}", found the string "short".\n`,
    );
  });

  it('a token with an empty name says the name is empty', async () => {
    const config = await writeConfig({
      gateway: { tokens: [{ name: '', token: '0123456789abcdefg' }] },
      mcpServers: {},
    });
    const result = await runCli(['servers', '--config', config]);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toBe(
      `mcp-host: ${config}: gateway.tokens[0].name: expected a name that is not empty, found the string "".\n`,
    );
  });

  it('a key the section does not take is named', async () => {
    const config = await writeConfig({ gateway: { tokns: [] }, mcpServers: {} });
    const result = await runCli(['servers', '--config', config]);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(
      /^mcp-host: .*: gateway: expected an object with `tokens`, .* or `store`, found an object with the key "tokns", which is not one of them\.\n$/,
    );
  });
});
