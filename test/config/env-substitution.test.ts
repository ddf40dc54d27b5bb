// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${VAR}` is the config syntax under test, not a template mistake.
import { describe, expect, it } from 'vitest';
import { substituteEnvironment } from '../../src/config/env-substitution.js';
import { parseConfig } from '../../src/config/parse-config.js';
import type { RemoteServerConfig, StdioServerConfig } from '../../src/config/types.js';
import { thrownConfigError } from '../helpers/config-errors.js';

const FILE = '/projects/demo/mcp-host.json';

function substitute(text: string, env: Record<string, string | undefined>) {
  const secrets = new Set<string>();
  const result = substituteEnvironment(text, 'key', { env, file: FILE, secrets });
  return { result, secrets: [...secrets] };
}

describe('substituteEnvironment', () => {
  it('replaces `${env:NAME}` and `${NAME}`, several per string', () => {
    expect(substitute('${env:USER_NAME}@${HOST}:${PORT}/x', { USER_NAME: 'ana', HOST: 'h', PORT: '8080' })).toEqual({
      result: 'ana@h:8080/x',
      secrets: ['ana', 'h', '8080'],
    });
  });

  it('leaves text without references and lone dollars alone', () => {
    expect(substitute('price $5, $HOME, $', {}).result).toBe('price $5, $HOME, $');
  });

  it('turns `$${` into a literal `${`', () => {
    expect(substitute('echo $${HOME} and ${A}', { A: 'a', HOME: '/home/x' })).toEqual({
      result: 'echo ${HOME} and a',
      secrets: ['a'],
    });
  });

  it('uses a fallback when the variable is unset or empty, and does not treat it as a secret', () => {
    expect(substitute('${LEVEL:-info}', {})).toEqual({ result: 'info', secrets: [] });
    expect(substitute('${env:LEVEL:-info}', { LEVEL: '' })).toEqual({ result: 'info', secrets: [] });
    expect(substitute('${LEVEL:-info}', { LEVEL: 'debug' })).toEqual({ result: 'debug', secrets: ['debug'] });
  });

  it('substitutes an empty value without recording it as a secret', () => {
    expect(substitute('[${EMPTY}]', { EMPTY: '' })).toEqual({ result: '[]', secrets: [] });
  });

  it('names a missing variable and the key path', () => {
    const error = thrownConfigError(() => substitute('Bearer ${env:API_TOKEN}', {}));
    expect(error.code).toBe('config-missing-variable');
    expect(error.variable).toBe('API_TOKEN');
    expect(error.keyPath).toBe('key');
    expect(error.file).toBe(FILE);
    expect(error.message).toContain('API_TOKEN');
  });

  it('rejects references it cannot resolve', () => {
    expect(thrownConfigError(() => substitute('${input:token}', { token: 'x' })).hint).toContain('Input prompts');
    expect(thrownConfigError(() => substitute('${not valid}', {})).found).toBe('`${not valid}`');
    expect(thrownConfigError(() => substitute('${1ABC}', {})).code).toBe('config-invalid');
    expect(thrownConfigError(() => substitute('abc ${HOME', { HOME: 'h' })).expected).toContain('closing `}`');
  });

  it('keeps references to unset variables when lenient', () => {
    const secrets = new Set<string>();
    expect(substituteEnvironment('${A}-${B}', 'key', { env: { A: 'a' }, file: FILE, secrets, lenient: true })).toBe(
      'a-${B}',
    );
  });
});

describe('substitution in a config file', () => {
  const env = { TOKEN: 'secret-token-1', ROOT: '/data', NODE_BIN: 'node', DB: 'postgres://u:p@h/db', M: 'gpt-5' };

  it('substitutes in command, args, env values, cwd, url, headers and model', () => {
    const config = parseConfig(
      JSON.stringify({
        model: 'openai:${M}',
        mcpServers: {
          local: {
            command: '${env:NODE_BIN}',
            args: ['server.js', '--root=${ROOT}/files', '--db', '${DB}'],
            env: { API_TOKEN: '${TOKEN}', PLAIN: 'value' },
            cwd: '${ROOT}/work',
          },
          remote: { url: 'https://mcp.example.test${ROOT}', headers: { Authorization: 'Bearer ${env:TOKEN}' } },
        },
      }),
      FILE,
      env,
    );
    const local = config.servers[0] as StdioServerConfig;
    expect(local.command).toBe('node');
    expect(local.args).toEqual(['server.js', '--root=/data/files', '--db', 'postgres://u:p@h/db']);
    expect(local.env).toEqual({ API_TOKEN: 'secret-token-1', PLAIN: 'value' });
    expect(local.cwd).toBe('/data/work');
    const remote = config.servers[1] as RemoteServerConfig;
    expect(remote.url).toBe('https://mcp.example.test/data');
    expect(remote.headers.Authorization).toBe('Bearer secret-token-1');
    expect(config.model).toBe('openai:gpt-5');
  });

  it('collects substituted values and header values as secrets, longest first', () => {
    const config = parseConfig(
      JSON.stringify({
        mcpServers: {
          a: { command: 'x', env: { T: '${TOKEN}', U: '${TOKEN}' }, args: ['${DB}'] },
          b: {
            url: 'http://127.0.0.1:9/mcp',
            headers: { Authorization: 'Bearer ${TOKEN}', 'X-Api-Key': 'literal-key' },
          },
        },
      }),
      FILE,
      env,
    );
    expect(config.secrets).toEqual(['Bearer secret-token-1', 'postgres://u:p@h/db', 'secret-token-1', 'literal-key']);
  });

  it('makes only that server unavailable, naming the missing variable and the nested key path', () => {
    const cases: Array<[unknown, string]> = [
      [{ mcpServers: { fs: { command: 'x', args: ['a', '--key=${MISSING}'] } } }, 'mcpServers.fs.args[1]'],
      [{ mcpServers: { fs: { command: 'x', env: { KEY: '${env:MISSING}' } } } }, 'mcpServers.fs.env.KEY'],
      [
        { mcpServers: { r: { url: 'http://h.test', headers: { 'X-Key': '${MISSING}' } } } },
        'mcpServers.r.headers.X-Key',
      ],
      [{ servers: { 'my.server': { command: '${MISSING}' } } }, 'servers["my.server"].command'],
      [{ mcpServers: { r: { url: '${MISSING}/mcp' } } }, 'mcpServers.r.url'],
    ];
    for (const [config, keyPath] of cases) {
      const parsed = parseConfig(JSON.stringify(config), FILE, {});
      expect(parsed.servers).toHaveLength(1);
      expect(parsed.servers[0]?.unavailable).toContain(
        `${FILE}: ${keyPath}: expected the environment variable MISSING to be set`,
      );
    }
  });

  it('still fails the whole config on a missing variable outside server entries', () => {
    const error = thrownConfigError(() => parseConfig(JSON.stringify({ model: 'anthropic:${MISSING}' }), FILE, {}));
    expect(error.code).toBe('config-missing-variable');
    expect(error.variable).toBe('MISSING');
    expect(error.keyPath).toBe('model');
  });

  it('does not fail on a missing variable in a disabled server', () => {
    const config = parseConfig(
      JSON.stringify({ mcpServers: { off: { url: '${REMOTE_URL}', disabled: true, headers: { A: '${KEY}' } } } }),
      FILE,
      {},
    );
    expect(config.servers[0]).toMatchObject({ disabled: true, url: '${REMOTE_URL}', headers: { A: '${KEY}' } });
  });

  it('does not substitute in server names, env names or permission rules', () => {
    const config = parseConfig(
      JSON.stringify({
        permissions: { deny: ['${TOKEN}__*'] },
        mcpServers: { '${TOKEN}': { command: 'x', env: { '${TOKEN}': 'v' } } },
      }),
      FILE,
      env,
    );
    expect(config.servers[0]!.name).toBe('${TOKEN}');
    expect((config.servers[0] as StdioServerConfig).env).toEqual({ '${TOKEN}': 'v' });
    expect(config.permissions.deny).toEqual(['${TOKEN}__*']);
  });
});
