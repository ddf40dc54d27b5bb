// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${VAR}` is the config syntax under test, not a template mistake.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config-error.js';
import { parseConfig, validateConfig } from '../../src/config/parse-config.js';
import { DEFAULT_TOOL_TIMEOUT_MS, type RemoteServerConfig, type StdioServerConfig } from '../../src/config/types.js';
import { thrownConfigError } from '../helpers/config-errors.js';

const FOLDER = path.resolve('/projects/demo');
const FILE = path.join(FOLDER, 'mcp-host.json');

function parse(config: unknown, env: Record<string, string | undefined> = {}) {
  return parseConfig(JSON.stringify(config), FILE, env);
}

function parseFailure(config: unknown, env: Record<string, string | undefined> = {}): ConfigError {
  return thrownConfigError(() => parse(config, env));
}

describe('Claude Desktop / Claude Code / Cursor format', () => {
  it('reads stdio and remote servers in file order with host defaults', () => {
    const config = parse({
      mcpServers: {
        fs: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '.'], env: { DEBUG: '1' } },
        remote: { url: 'https://tools.example.test/mcp', headers: { 'X-Team': 'blue' } },
      },
    });
    expect(config.file).toBe(FILE);
    expect(config.servers).toEqual([
      {
        name: 'fs',
        transport: 'stdio',
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-filesystem', '.'],
        env: { DEBUG: '1' },
        cwd: FOLDER,
        trust: 'untrusted',
        timeoutMs: DEFAULT_TOOL_TIMEOUT_MS,
        disabled: false,
        versionNegotiation: 'legacy',
      },
      {
        name: 'remote',
        transport: 'http',
        url: 'https://tools.example.test/mcp',
        headers: { 'X-Team': 'blue' },
        trust: 'untrusted',
        timeoutMs: 60_000,
        disabled: false,
        versionNegotiation: 'legacy',
      },
    ]);
    expect(config.model).toBeUndefined();
    expect(config.permissions).toEqual({ allow: [], ask: [], deny: [] });
    expect(config.warnings).toEqual([]);
  });

  it('reads host fields per server and at the top level', () => {
    const config = parse({
      model: 'anthropic:claude-sonnet-4-6',
      permissions: { allow: ['fs__read_file'], ask: ['fs__*'], deny: ['shell__*'] },
      mcpServers: {
        fs: { command: 'node', trust: 'trusted', timeoutMs: 1500, disabled: true, versionNegotiation: 'auto' },
      },
    });
    expect(config.model).toBe('anthropic:claude-sonnet-4-6');
    expect(config.permissions).toEqual({ allow: ['fs__read_file'], ask: ['fs__*'], deny: ['shell__*'] });
    expect(config.servers[0]).toMatchObject({
      trust: 'trusted',
      timeoutMs: 1500,
      disabled: true,
      versionNegotiation: 'auto',
    });
  });

  it('accepts a file without servers', () => {
    expect(parse({ model: 'openai:gpt-5' }).servers).toEqual([]);
  });
});

describe('VS Code format and `type`', () => {
  it('reads `servers` with `type`, ignoring `inputs`', () => {
    const config = parse({
      inputs: [{ type: 'promptString', id: 'token', description: 'Token', password: true }],
      servers: {
        local: { type: 'stdio', command: 'node', args: ['server.js'] },
        streamable: { type: 'http', url: 'http://127.0.0.1:3000/mcp' },
        legacy: { type: 'sse', url: 'http://127.0.0.1:3001/sse' },
        dashed: { type: 'streamable-http', url: 'http://127.0.0.1:3002/mcp' },
        camel: { type: 'streamableHttp', url: 'http://127.0.0.1:3003/mcp' },
      },
    });
    expect(config.servers.map((server) => [server.name, server.transport])).toEqual([
      ['local', 'stdio'],
      ['streamable', 'http'],
      ['legacy', 'sse'],
      ['dashed', 'http'],
      ['camel', 'http'],
    ]);
    expect(config.warnings).toEqual([]);
  });

  it('infers stdio from `command` and http from `url`', () => {
    const config = parse({ mcpServers: { a: { command: 'x' }, b: { url: 'http://127.0.0.1:1/mcp' } } });
    expect(config.servers.map((server) => server.transport)).toEqual(['stdio', 'http']);
  });

  it('rejects `mcpServers` and `servers` together', () => {
    const error = parseFailure({ mcpServers: { a: { command: 'x' } }, servers: { b: { command: 'y' } } });
    expect(error.keyPath).toBe('servers');
    expect(error.expected).toContain('only one of `mcpServers` or `servers`');
  });

  it('rejects a `type` that does not match the entry', () => {
    const stdioWithUrl = parseFailure({ servers: { a: { type: 'stdio', url: 'http://127.0.0.1:1/mcp' } } });
    expect(stdioWithUrl.keyPath).toBe('servers.a.command');
    const httpWithCommand = parseFailure({ servers: { a: { type: 'http', command: 'node' } } });
    expect(httpWithCommand.keyPath).toBe('servers.a.url');
    const unknownType = parseFailure({ servers: { a: { type: 'websocket', url: 'ws://127.0.0.1:1' } } });
    expect(unknownType.keyPath).toBe('servers.a.type');
    expect(unknownType.expected).toContain('"stdio"');
    expect(unknownType.found).toBe('the string "websocket"');
  });
});

describe('errors name the file, the key path and what was expected', () => {
  const cases: Array<[string, unknown, string, string]> = [
    [
      'args not an array',
      { mcpServers: { fs: { command: 'x', args: '-y' } } },
      'mcpServers.fs.args',
      'array of strings',
    ],
    [
      'an arg not a string',
      { mcpServers: { fs: { command: 'x', args: ['a', 2] } } },
      'mcpServers.fs.args[1]',
      'a string',
    ],
    ['env value', { mcpServers: { fs: { command: 'x', env: { PORT: 80 } } } }, 'mcpServers.fs.env.PORT', 'a string'],
    ['env not an object', { mcpServers: { fs: { command: 'x', env: ['A=1'] } } }, 'mcpServers.fs.env', 'an object'],
    [
      'header value',
      { mcpServers: { r: { url: 'http://h.test', headers: { A: true } } } },
      'mcpServers.r.headers.A',
      'a string',
    ],
    [
      'timeout not integer',
      { mcpServers: { fs: { command: 'x', timeoutMs: 2.5 } } },
      'mcpServers.fs.timeoutMs',
      'positive whole number',
    ],
    [
      'timeout zero',
      { mcpServers: { fs: { command: 'x', timeoutMs: 0 } } },
      'mcpServers.fs.timeoutMs',
      'positive whole number',
    ],
    [
      'timeout string',
      { mcpServers: { fs: { command: 'x', timeoutMs: '5000' } } },
      'mcpServers.fs.timeoutMs',
      'positive whole number',
    ],
    [
      'timeout too big',
      { mcpServers: { fs: { command: 'x', timeoutMs: 2 ** 31 } } },
      'mcpServers.fs.timeoutMs',
      'at most',
    ],
    [
      'trust value',
      { mcpServers: { fs: { command: 'x', trust: 'yes' } } },
      'mcpServers.fs.trust',
      '"trusted" or "untrusted"',
    ],
    [
      'disabled value',
      { mcpServers: { fs: { command: 'x', disabled: 'no' } } },
      'mcpServers.fs.disabled',
      'true or false',
    ],
    [
      'negotiation',
      { mcpServers: { fs: { command: 'x', versionNegotiation: 'new' } } },
      'mcpServers.fs.versionNegotiation',
      '"legacy" or "auto"',
    ],
    ['empty command', { mcpServers: { fs: { command: '' } } }, 'mcpServers.fs.command', 'non-empty'],
    ['bad url', { mcpServers: { r: { url: 'ftp://h.test' } } }, 'mcpServers.r.url', 'http:// or https://'],
    ['entry not object', { mcpServers: { fs: 'npx server' } }, 'mcpServers.fs', 'server entry object'],
    [
      'odd server name',
      { mcpServers: { 'my fs.v2': { command: 'x', args: [1] } } },
      'mcpServers["my fs.v2"].args[0]',
      'a string',
    ],
    ['servers not object', { mcpServers: [] }, 'mcpServers', 'mapping server names'],
    ['model type', { model: 42 }, 'model', 'a model as a string'],
    ['strict tools', { strictTools: 'yes' }, 'strictTools', 'true or false'],
    ['permissions list', { permissions: { deny: 'fs__*' } }, 'permissions.deny', 'an array of strings'],
    ['permission rule', { permissions: { ask: ['a', null] } }, 'permissions.ask[1]', 'a string'],
    ['top level', ['not', 'an', 'object'], '', 'a JSON object'],
  ];
  for (const [label, config, keyPath, expected] of cases) {
    it(label, () => {
      const error = parseFailure(config);
      expect(error).toBeInstanceOf(ConfigError);
      expect(ConfigError.isInstance(error)).toBe(true);
      expect(error.code).toBe('config-invalid');
      expect(error.file).toBe(FILE);
      expect(error.keyPath).toBe(keyPath);
      expect(error.expected).toContain(expected);
      expect(error.message).toContain(FILE);
      expect(error.message).toContain(`${keyPath}${keyPath === '' ? '' : ':'} expected`);
    });
  }

  it('says what was found', () => {
    expect(parseFailure({ mcpServers: { fs: { command: 'x', args: ['a', 2] } } }).found).toBe('the number 2');
    expect(parseFailure({ mcpServers: { fs: { command: 'x', env: null } } }).found).toBe('null');
  });

  it('rejects an entry with neither command nor url, and one with both', () => {
    const neither = parseFailure({ mcpServers: { fs: { args: ['x'] } } });
    expect(neither.keyPath).toBe('mcpServers.fs');
    expect(neither.expected).toContain('`command`');
    expect(neither.expected).toContain('`url`');
    const both = parseFailure({ mcpServers: { fs: { command: 'x', url: 'http://h.test' } } });
    expect(both.keyPath).toBe('mcpServers.fs');
    expect(both.expected).toContain('not both');
  });

  it('rejects an empty server name', () => {
    expect(parseFailure({ mcpServers: { '': { command: 'x' } } }).expected).toContain('non-empty server name');
  });
});

describe('unknown keys are warnings, not errors', () => {
  it('collects one warning per unknown key naming file and key path', () => {
    const config = parse({
      $schema: 'https://example.test/schema.json',
      globalShortcut: 'Ctrl+Space',
      permissions: { allow: [], sometimes: [] },
      mcpServers: {
        fs: { command: 'x', autoApprove: ['read_file'], alwaysAllow: [] },
        'web.search': { url: 'http://h.test/mcp', envFile: '.env' },
      },
    });
    expect(config.servers).toHaveLength(2);
    expect(config.warnings).toEqual([
      `${FILE}: globalShortcut: not a setting mcp-host uses; ignored`,
      `${FILE}: permissions.sometimes: not a permission list (allow, ask, deny); ignored`,
      `${FILE}: mcpServers.fs.autoApprove: not a setting mcp-host uses; ignored`,
      `${FILE}: mcpServers.fs.alwaysAllow: not a setting mcp-host uses; ignored`,
      `${FILE}: mcpServers["web.search"].envFile: only used by local (stdio) servers; ignored`,
    ]);
  });

  it('warns about keys the other kind of server uses', () => {
    const config = parse({
      mcpServers: {
        remote: { url: 'http://h.test/mcp', args: ['x'] },
        local: { command: 'x', headers: { A: 'b' } },
      },
    });
    expect(config.warnings).toEqual([
      `${FILE}: mcpServers.remote.args: only used by local (stdio) servers; ignored`,
      `${FILE}: mcpServers.local.headers: only used by remote servers; ignored`,
    ]);
    expect(config.servers[0]).not.toHaveProperty('args');
    expect(config.servers[1]).not.toHaveProperty('headers');
  });
});

describe('paths resolve against the config file folder', () => {
  it('defaults cwd to the folder and resolves a relative cwd against it', () => {
    const config = parse({
      mcpServers: {
        plain: { command: 'x' },
        relative: { command: 'x', cwd: 'servers/../tools' },
        absolute: { command: 'x', cwd: path.resolve('/srv/mcp') },
      },
    });
    const cwds = config.servers.map((server) => (server as StdioServerConfig).cwd);
    expect(cwds).toEqual([FOLDER, path.join(FOLDER, 'tools'), path.resolve('/srv/mcp')]);
  });

  it('resolves a scripted model path and leaves other models alone', () => {
    expect(parse({ model: 'scripted:./scripts/demo.json' }).model).toBe(
      `scripted:${path.join(FOLDER, 'scripts', 'demo.json')}`,
    );
    expect(parse({ model: `scripted:${path.resolve('/tmp/s.json')}` }).model).toBe(
      `scripted:${path.resolve('/tmp/s.json')}`,
    );
    expect(parse({ model: 'ollama:qwen2.5:7b' }).model).toBe('ollama:qwen2.5:7b');
  });

  it('resolves a relative file name against the cwd option', () => {
    const config = parseConfig('{"mcpServers": {"a": {"command": "x"}}}', 'conf/mcp.json', {}, { cwd: FOLDER });
    expect(config.file).toBe(path.join(FOLDER, 'conf', 'mcp.json'));
    expect((config.servers[0] as StdioServerConfig).cwd).toBe(path.join(FOLDER, 'conf'));
  });

  it('uses the cwd option for a config that has no file', () => {
    const config = validateConfig(
      { mcpServers: { a: { command: 'x', cwd: 'sub' } }, model: 'scripted:s.json' },
      { cwd: FOLDER, env: {} },
    );
    expect(config.file).toBeUndefined();
    expect((config.servers[0] as StdioServerConfig).cwd).toBe(path.join(FOLDER, 'sub'));
    expect(config.model).toBe(`scripted:${path.join(FOLDER, 's.json')}`);
  });

  it('names a config without a file in errors', () => {
    const error = thrownConfigError(() => validateConfig({ mcpServers: { a: { command: 3 } } }, { env: {} }));
    expect(error.file).toBeUndefined();
    expect(error.message).toMatch(/^<inline config>: mcpServers\.a\.command: expected/);
  });
});

describe('remote servers', () => {
  it('keeps the url and headers after substitution', () => {
    const config = parse(
      {
        mcpServers: {
          r: { type: 'sse', url: 'https://${HOST}/sse', headers: { Authorization: 'Bearer ${env:TOKEN}' } },
        },
      },
      { HOST: 'mcp.example.test', TOKEN: 'tok-123' },
    );
    const server = config.servers[0] as RemoteServerConfig;
    expect(server.url).toBe('https://mcp.example.test/sse');
    expect(server.headers).toEqual({ Authorization: 'Bearer tok-123' });
  });
});

describe('editor files: ${workspaceFolder} and settings.json', () => {
  it("resolves ${workspaceFolder} to the folder holding .vscode/, or the config file's folder", () => {
    const entry = { servers: { a: { type: 'stdio', command: 'x', args: ['${workspaceFolder}/data'] } } };
    const vscode = parseConfig(JSON.stringify(entry), path.join(FOLDER, '.vscode', 'mcp.json'), {});
    expect((vscode.servers[0] as StdioServerConfig).args).toEqual([path.join(FOLDER, 'data').replaceAll('\\', '/')]);
    const plain = parse(entry);
    expect((plain.servers[0] as StdioServerConfig).args).toEqual([`${FOLDER}/data`]);
    const variable = parse(
      { mcpServers: { a: { command: 'x', args: ['${env:workspaceFolder}'] } } },
      { workspaceFolder: 'v' },
    );
    expect((variable.servers[0] as StdioServerConfig).args).toEqual(['v']);
  });

  it("takes the servers of a settings.json's `mcp` section and names errors under mcp.servers", () => {
    const config = parse({ 'editor.fontSize': 14, mcp: { servers: { a: { command: 'x' } } } });
    expect(config.servers.map((server) => server.name)).toEqual(['a']);
    expect(config.warnings).toEqual([]);
    expect(parseFailure({ mcp: { servers: { a: { command: 3 } } } }).keyPath).toBe('mcp.servers.a.command');
    expect(parseFailure({ mcp: { servers: null } }).keyPath).toBe('mcp.servers');
  });

  it('takes the servers of the flat `"mcp.servers"` key and names errors under it, not under `mcp` → `servers`', () => {
    const config = parse({ 'editor.fontSize': 14, 'mcp.servers': { a: { command: 'x' } } });
    expect(config.servers.map((server) => server.name)).toEqual(['a']);
    expect(config.warnings).toEqual([]);
    expect(parseFailure({ 'mcp.servers': { a: { command: 3 } } }).keyPath).toBe('["mcp.servers"].a.command');
    expect(parseFailure({ 'mcp.servers': null }).keyPath).toBe('["mcp.servers"]');
  });

  it("refuses a settings.json's servers beside `mcpServers` or `servers`: one would be ignored", () => {
    const flat = parseFailure({ mcpServers: { a: { command: 'x' } }, 'mcp.servers': { b: { command: 'y' } } });
    expect([flat.keyPath, flat.expected, flat.found]).toEqual([
      '["mcp.servers"]',
      'server entries under only one of `mcpServers` or `["mcp.servers"]`',
      'both',
    ]);
    const all = parseFailure({ servers: {}, mcp: { servers: {} }, 'mcp.servers': {} });
    expect([all.keyPath, all.found]).toEqual(['mcp.servers', 'all 3']);
    // A key a config written in code leaves undefined holds no servers.
    const inCode = validateConfig({ mcpServers: undefined, 'mcp.servers': { a: { command: 'x' } } }, { cwd: FOLDER });
    expect(inCode.servers.map((server) => server.name)).toEqual(['a']);
  });
});

describe('a key written twice', () => {
  const failure = (text: string): ConfigError => thrownConfigError(() => parseConfig(text, FILE, {}));

  it('is refused where the host reads, naming both places, even with comments around it', () => {
    const text = [
      '{',
      '  "mcpServers": {',
      '    "notes": {',
      '      "command": "node", // what a reviewer reads',
      '      "args": ["notes.js"],',
      '      "command": "sh"',
      '    }',
      '  }',
      '}',
    ].join('\n');
    const error = failure(text);
    expect(error.keyPath).toBe('mcpServers.notes.command');
    expect([error.line, error.column]).toEqual([6, 7]);
    expect(error.message).toBe(
      `${FILE}:6:7: mcpServers.notes.command: expected each key once in an object, found it a second time ` +
        '(first at line 4, column 7). Only the last would count; remove the one that is wrong.',
    );
  });

  it('is refused at the top level, in arrays of objects and under keys that differ only in escapes', () => {
    expect(failure('{"mcpServers": {}, "mcpServers": {"a": {"command": "x"}}}').keyPath).toBe('mcpServers');
    const inArray = failure('{"mcpServers": {}, "profiles": {"p": {"servers": ["a"]}}, "x": [{"k": 1, "k": 2}]}');
    expect(inArray.keyPath).toBe('x[0].k');
    // "\u0065nv" is "env": JSON readers see the same key.
    const escaped = failure('{"mcpServers": {"a": {"command": "x", "env": {}, "\\u0065nv": {"A": "1"}}}}');
    expect(escaped.keyPath).toBe('mcpServers.a.env');
    // A key holding control codes is named with them as escapes, never raw.
    const hostile = failure('{"mcpServers": {"a\\u001b[31m": {"command": "x"}, "a\\u001b[31m": {"command": "y"}}}');
    expect(hostile.keyPath).toBe('mcpServers["a\\u001b[31m"]');
    expect(hostile.message).not.toContain('\u001b');
  });

  it("in an editor's settings file counts only in its servers section", () => {
    const other = '{"editor.fontSize": 12, "editor.fontSize": 14, "mcp": {"servers": {"a": {"command": "x"}}}}';
    expect(parseConfig(other, FILE, {}).servers.map((server) => server.name)).toEqual(['a']);
    const dotted = '{"mcp.servers": {"a": {"command": "x", "command": "y"}}}';
    expect(failure(dotted).keyPath).toBe('["mcp.servers"].a.command');
    const nested = '{"mcp": {"servers": {"a": {"command": "x"}}, "servers": {}}}';
    expect(failure(nested).keyPath).toBe('mcp.servers');
    // Both ways of writing the section: one would run and the other be ignored.
    const both = '{"mcp.servers": {"a": {"command": "x"}}, "mcp": {"servers": {"b": {"command": "y"}}}}';
    expect(failure(both).message).toBe(
      `${FILE}: ["mcp.servers"]: expected server entries under only one of \`mcp.servers\` or \`["mcp.servers"]\`, ` +
        'found both. One would be read and the rest ignored without a word; keep the servers under one.',
    );
  });

  it('leaves the same key in different objects alone', () => {
    const text = '{"mcpServers": {"a": {"command": "x", "env": {"A": "1"}}, "b": {"command": "x", "env": {"A": "1"}}}}';
    expect(parseConfig(text, FILE, {}).servers).toHaveLength(2);
  });
});

describe('nesting', () => {
  it('refuses a config nested deeper than any setting needs, at the place it gets too deep', () => {
    const deep = `{"mcpServers": {"a": {"command": "x", "env": ${'{"k": '.repeat(100_000)}1${'}'.repeat(100_000)}}}}`;
    const error = thrownConfigError(() => parseConfig(deep, FILE, {}));
    expect(error.code).toBe('config-invalid-json');
    // Three objects open before the first `{"k": `, so the 126th of those is the 129th level.
    expect([error.line, error.column]).toEqual([1, 1 + deep.indexOf('{"k": ') + 125 * '{"k": '.length]);
    expect(error.message).toContain('expected objects and arrays nested at most 128 levels deep, found one level more');
  });

  it('does not count brackets in strings or comments', () => {
    const text = `{"mcpServers": {"a": {"command": "${'['.repeat(500)}"}}} // ${'{'.repeat(500)}`;
    expect(parseConfig(text, FILE, {}).servers[0]).toMatchObject({ command: '['.repeat(500) });
  });
});

describe('envFile', () => {
  it('is read only when it is a file: a device a config names is refused, not read until memory runs out', () => {
    const error = parseFailure({ mcpServers: { a: { command: 'x', envFile: '/dev/zero' } } });
    expect(error.keyPath).toBe('mcpServers.a.envFile');
    expect(error.message).toContain(
      'expected a readable env file at /dev/zero, found a device, pipe or socket, not a file',
    );
  });
});
