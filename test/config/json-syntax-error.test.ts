import { describe, expect, it } from 'vitest';
import type { ConfigError } from '../../src/config/config-error.js';
import { findJsonSyntaxProblem, lineAndColumn } from '../../src/config/json-syntax-error.js';
import { parseConfig } from '../../src/config/parse-config.js';
import { thrownConfigError } from '../helpers/config-errors.js';

function parseError(text: string): ConfigError {
  return thrownConfigError(() => parseConfig(text, '/configs/mcp-host.json', {}));
}

describe('bad JSON in a config file', () => {
  it('accepts comments and trailing commas, as VS Code does', () => {
    const config = parseConfig(
      '{\n  // my servers\n  "mcpServers": {\n    /* a */ "fs": { "command": "npx", },\n  },\n}\n',
      '/configs/mcp-host.json',
      {},
    );
    expect(config.servers.map((server) => server.name)).toEqual(['fs']);
  });

  it('still rejects a comma with nothing before it, naming line and column', () => {
    const error = parseError('{\n  "mcpServers": {,}\n}');
    expect(error.code).toBe('config-invalid-json');
    expect([error.line, error.column]).toEqual([2, 18]);
  });

  it('says an unterminated comment is not allowed', () => {
    const error = parseError('{\n  /* my servers\n  "mcpServers": {}\n}');
    expect(error.line).toBe(2);
    expect(error.column).toBe(3);
    expect(error.found).toBe('a comment');
  });

  it('points at a token that Node reports without a position', () => {
    // Node 20 says only "Unexpected token '}', ... is not valid JSON" here.
    const error = parseError('{"mcpServers": {"fs": {"command": }}}');
    expect(error.line).toBe(1);
    expect(error.column).toBe(35);
    expect(error.expected).toContain('a value');
    expect(error.found).toBe('`}`');
  });

  it('reports a file that ends early', () => {
    const error = parseError('{\n  "mcpServers": {\n');
    expect(error.line).toBe(3);
    expect(error.column).toBe(1);
    expect(error.found).toBe('the end of the file');
  });

  it('reports single quotes, raw line breaks in strings and extra content', () => {
    expect(parseError("{'mcpServers': {}}").hint).toContain('double quotes');
    const lineBreak = parseError('{"model": "a\nb"}');
    expect([lineBreak.line, lineBreak.column, lineBreak.found]).toEqual([1, 13, 'a line break']);
    const extra = parseError('{}\n{}');
    expect([extra.line, extra.column]).toEqual([2, 1]);
    expect(extra.expected).toContain('end of the file');
  });

  it('reports an empty file', () => {
    const error = parseError('  \n');
    expect(error.code).toBe('config-invalid-json');
    expect(error.found).toBe('an empty file');
  });

  it('skips a UTF-8 byte order mark', () => {
    expect(parseConfig('\uFEFF{"mcpServers": {}}', '/configs/mcp-host.json', {}).servers).toEqual([]);
  });
});

describe('findJsonSyntaxProblem', () => {
  it('counts CRLF and lone CR as one line break each', () => {
    expect(lineAndColumn('a\r\nb\rc\nd', 7)).toEqual({ line: 4, column: 1 });
    expect(lineAndColumn('ab', 1)).toEqual({ line: 1, column: 2 });
  });

  it('agrees with JSON.parse on validity, and on the position when Node gives one', () => {
    const valid = [
      '{"mcpServers":{"fs":{"command":"npx","args":["-y","@scope/pkg"],"env":{"A":"\\u00e9\\n"}}},"n":[-0.5e+3,0,1E2,true,false,null]}',
      '[1, [2, [3, {"a": {}}]], "\\"quoted\\""]',
    ];
    const alphabet = ['{', '}', '[', ']', ',', ':', '"', '\\', ' ', '\n', 'x', '0', '-', '.', 'e', "'", '/', 't'];
    let seed = 7;
    const random = (limit: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % limit;
    };
    let checked = 0;
    for (let round = 0; round < 3000; round++) {
      const base = valid[round % valid.length]!;
      const at = random(base.length + 1);
      const operation = random(3);
      const character = alphabet[random(alphabet.length)]!;
      const text =
        operation === 0
          ? base.slice(0, at) + character + base.slice(at)
          : operation === 1
            ? base.slice(0, at) + base.slice(at + 1)
            : base.slice(0, at) + character + base.slice(at + 1);
      let nodeMessage: string | undefined;
      try {
        JSON.parse(text);
      } catch (error) {
        nodeMessage = (error as Error).message;
      }
      const problem = findJsonSyntaxProblem(text);
      expect(problem === undefined, `validity of ${JSON.stringify(text)}`).toBe(nodeMessage === undefined);
      const nodePosition = nodeMessage === undefined ? undefined : /at position (\d+)/.exec(nodeMessage)?.[1];
      if (problem !== undefined && nodePosition !== undefined) {
        expect(problem.offset, `position in ${JSON.stringify(text)}: ${nodeMessage}`).toBe(Number(nodePosition));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(100);
  });
});
