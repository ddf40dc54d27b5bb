/** The `roots` and `sampling` config keys: resolved values, and errors that name the file, key and expectation. */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { resolveRoots } from '../../src/client-features/roots-registry.js';
import { parseConfig } from '../../src/config/parse-config.js';

const file = join('/', 'home', 'user', 'project', 'mcp-host.json');
const parse = (value: unknown) => parseConfig(JSON.stringify(value), file, {});

describe('roots', () => {
  it('resolves paths against the config folder and keeps file:// URIs', () => {
    const config = parse({ mcpServers: {}, roots: ['.', 'src', '/srv/data', 'file:///opt/shared'] });
    expect(config.roots).toEqual([
      pathToFileURL('/home/user/project').href,
      pathToFileURL('/home/user/project/src').href,
      pathToFileURL('/srv/data').href,
      'file:///opt/shared',
    ]);
  });

  it('refuses URIs other than file:// and values that are not strings', () => {
    expect(() => parse({ mcpServers: {}, roots: ['https://example.com/repo'] })).toThrow(
      `${file}: roots[0]: expected a folder path or a file:// URI (MCP roots are local folders), found "https://example.com/repo".`,
    );
    expect(() => parse({ mcpServers: {}, roots: 'src' })).toThrow(
      /roots: expected an array of folder paths or file:\/\/ URIs/,
    );
    expect(() => parse({ mcpServers: {}, roots: [''] })).toThrow(/roots\[0\]: expected a non-empty folder path/);
  });

  it('names each root after its folder', () => {
    expect(resolveRoots(['work', 'file:///opt/shared'], '/home/user')).toEqual([
      { uri: pathToFileURL('/home/user/work').href, name: 'work' },
      { uri: 'file:///opt/shared', name: 'shared' },
    ]);
  });
});

describe('sampling', () => {
  it('reads the model, per-server and per-hint mappings; tools default to on', () => {
    const config = parse({
      mcpServers: { everything: { command: 'x' } },
      sampling: {
        model: 'anthropic:claude-haiku-4-5',
        servers: { everything: 'scripted:./sampling.json' },
        hints: { sonnet: 'anthropic:claude-sonnet-4-6' },
      },
    });
    expect(config.sampling).toEqual({
      model: 'anthropic:claude-haiku-4-5',
      servers: { everything: `scripted:${join('/home/user/project', 'sampling.json')}` },
      hints: { sonnet: 'anthropic:claude-sonnet-4-6' },
      tools: true,
    });
  });

  it('warns about unknown keys and servers that do not exist', () => {
    const config = parse({
      mcpServers: {},
      sampling: { servers: { ghost: 'openai:gpt-5' }, temperature: 1, tools: false },
    });
    expect(config.sampling).toEqual({ servers: {}, hints: {}, tools: false });
    expect(config.warnings).toEqual([
      `${file}: sampling.temperature: not a sampling setting (model, servers, hints, tools); ignored`,
      `${file}: sampling.servers.ghost: no server is named "ghost"; ignored`,
    ]);
  });

  it('refuses values of the wrong shape', () => {
    expect(() => parse({ mcpServers: {}, sampling: { tools: 'yes' } })).toThrow(
      `${file}: sampling.tools: expected true or false, found the string "yes".`,
    );
    expect(() => parse({ mcpServers: {}, sampling: { servers: { a: '' } } })).toThrow(
      /sampling\.servers\.a: expected a non-empty model/,
    );
  });
});
