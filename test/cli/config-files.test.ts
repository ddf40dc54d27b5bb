// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${workspaceFolder}` is the config syntax under test.
/**
 * Configs people already have: JSON with comments and trailing commas, `envFile`, `${workspaceFolder}`, the files
 * Claude Desktop, Cursor and VS Code write (including VS Code's settings.json `mcp.servers`), and `mcp-host add` /
 * `remove` editing a config the way `claude mcp add` does.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundledFixture } from '../helpers/bundled-fixture.js';
import { runCliInProcess } from '../helpers/in-process-cli.js';
import { exampleServer, repoRoot, runCli, temporaryDirectory } from '../helpers/project.js';

const flexibleServer = bundledFixture(join(repoRoot, 'test', 'fixtures', 'host', 'flexible-server.mjs'));
const calculator = (): string => exampleServer('calculator');

describe('config files as other tools write them', { timeout: 120_000 }, () => {
  it('reads comments and trailing commas', async () => {
    const directory = await temporaryDirectory();
    const file = join(directory, 'mcp-host.json');
    await writeFile(
      file,
      `{
  // the calculator example
  "mcpServers": {
    /* local */ "calc": { "command": ${JSON.stringify(process.execPath)}, "args": [${JSON.stringify(calculator())},], },
  },
}
`,
    );
    const result = await runCliInProcess(['tools', 'call', 'calc__add_numbers', 'a=5', 'b=7', '--config', file]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim()).toBe('12');
  });

  it('still names the line and column of a real syntax error after a comment', async () => {
    const directory = await temporaryDirectory();
    const file = join(directory, 'mcp-host.json');
    await writeFile(file, '{\n  // servers\n  "mcpServers": { "a": { "command": } }\n}\n');
    const result = await runCliInProcess(['servers', '--config', file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${file}:3:37:`);
  });

  it('names a misspelt command or url key in the error for an entry that has neither', async () => {
    const directory = await temporaryDirectory();
    const file = join(directory, 'mcp-host.json');
    await writeFile(file, JSON.stringify({ mcpServers: { calc: { comand: 'node', args: ['calc.js'] } } }));
    const calc = await runCli(['servers', '--config', file]);
    expect(calc.code).toBe(2);
    expect(calc.stderr).toBe(
      `mcp-host: ${file}: mcpServers.calc: expected \`command\` (a local process) or \`url\` (a remote server), found neither. "comand" is no key mcp-host reads: did you mean "command"?\n`,
    );
  });

  it('reads a VS Code .vscode/mcp.json: `servers`, `type`, `envFile` and `${workspaceFolder}`', async () => {
    const workspace = await temporaryDirectory();
    await mkdir(join(workspace, '.vscode'));
    await writeFile(
      join(workspace, 'server.env'),
      '# for the fixture\nSERVER_LABEL="from file"\nexport TOOL_NAMES=["hello"]\n',
    );
    const file = join(workspace, '.vscode', 'mcp.json');
    await writeFile(
      file,
      `{
  "inputs": [],
  "servers": {
    "flex": {
      "type": "stdio",
      "command": ${JSON.stringify(process.execPath)},
      "args": [${JSON.stringify(flexibleServer)}],
      "cwd": "\${workspaceFolder}",
      "envFile": "\${workspaceFolder}/server.env",
    },
  },
}
`,
    );
    const result = await runCliInProcess(['tools', 'call', 'flex__hello', '--config', file]);
    expect(result.code, result.stderr).toBe(0);
    // The label came from the env file; values from an env file count as secrets, so `tools call` prints it redacted.
    expect(result.stdout.trim()).toBe('[redacted]/hello');
  });

  it('lets `env` win over `envFile`, and names a missing envFile', async () => {
    const directory = await temporaryDirectory();
    await writeFile(join(directory, '.env'), 'SERVER_LABEL=file\nTOOL_NAMES=["hello"]\n');
    const entry = { command: process.execPath, args: [flexibleServer], envFile: '.env', env: { SERVER_LABEL: 'env' } };
    const file = join(directory, 'mcp-host.json');
    await writeFile(file, JSON.stringify({ mcpServers: { flex: entry } }));
    const result = await runCliInProcess(['tools', 'call', 'flex__hello', '--config', file]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim()).toBe('env/hello');

    await writeFile(file, JSON.stringify({ mcpServers: { flex: { ...entry, envFile: 'missing.env' } } }));
    const missing = await runCliInProcess(['tools', 'list', '--config', file]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('mcpServers.flex.envFile');
    expect(missing.stderr).toContain('missing.env');
  });

  it("reads VS Code's settings.json `mcp.servers` and ignores the editor's other settings", async () => {
    const directory = await temporaryDirectory();
    const file = join(directory, 'settings.json');
    await writeFile(
      file,
      `{
  "editor.fontSize": 14,
  "workbench.colorTheme": "Default Dark+",
  "mcp": {
    "servers": {
      "calc": { "type": "stdio", "command": ${JSON.stringify(process.execPath)}, "args": [${JSON.stringify(calculator())}] },
    },
  },
}
`,
    );
    const result = await runCliInProcess(['tools', 'list', '--config', file]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('calc__add_numbers');
    expect(result.stderr).not.toContain('editor.fontSize');
  });

  it('reads a Claude Desktop file with its own settings beside `mcpServers`', async () => {
    const directory = await temporaryDirectory();
    const file = join(directory, 'claude_desktop_config.json');
    await writeFile(
      file,
      JSON.stringify({
        globalShortcut: 'Ctrl+Space',
        mcpServers: { calc: { command: process.execPath, args: [calculator()] } },
      }),
    );
    const result = await runCliInProcess(['tools', 'call', 'calc__multiply', 'a=6', 'b=7', '--config', file]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim()).toBe('42');
  });
});

describe('mcp-host add / remove', { timeout: 120_000 }, () => {
  it('adds a stdio server after `--`, keeping the comments of the file', async () => {
    const directory = await temporaryDirectory();
    const file = join(directory, 'mcp-host.json');
    await writeFile(file, '{\n  // my servers\n  "model": "scripted:x.json",\n  "mcpServers": {},\n}\n');
    const added = await runCliInProcess([
      'add',
      '--config',
      file,
      '-e',
      'DEBUG=1',
      'calc',
      '--',
      process.execPath,
      flexibleServer,
      '--flag-for-the-server',
    ]);
    expect(added.code, added.stderr).toBe(0);
    const text = await readFile(file, 'utf8');
    expect(text).toContain('// my servers');
    expect(text).toContain('"model": "scripted:x.json"');
    const called = await runCliInProcess(['tools', 'call', 'calc__pid', '--config', file]);
    expect(called.code, called.stderr).toBe(0);
    expect(Number(called.stdout.trim())).toBeGreaterThan(0);

    const again = await runCliInProcess(['add', '--config', file, 'calc', '--', process.execPath]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('calc');

    const parsed = JSON.parse(
      text
        .split('\n')
        .filter((line) => !line.trim().startsWith('//'))
        .join('\n')
        .replace(/,(\s*[}\]])/g, '$1'),
    );
    expect(parsed.mcpServers.calc).toEqual({
      command: process.execPath,
      args: [flexibleServer, '--flag-for-the-server'],
      env: { DEBUG: '1' },
    });
  });

  it('keeps what it does not change as the user wrote it: entries on one line, comments, other settings', async () => {
    const directory = await temporaryDirectory();
    const file = join(directory, 'mcp-host.json');
    const written = [
      '{',
      '  // my servers',
      '  "mcpServers": {',
      '    "keep": { "command": "node", "args": ["keep.js"] }, // on one line',
      '    "other": {"url": "https://tools.example.test/mcp"}',
      '  },',
      '  "permissions": { "allow": ["keep__*"] }',
      '}',
      '',
    ].join('\n');
    await writeFile(file, written);
    const added = await runCliInProcess(['add', '-c', file, 'calc', '--', 'node', 'server.js']);
    expect(added.code, added.stderr).toBe(0);
    expect(await readFile(file, 'utf8')).toBe(
      [
        '{',
        '  // my servers',
        '  "mcpServers": {',
        '    "keep": { "command": "node", "args": ["keep.js"] }, // on one line',
        '    "other": {"url": "https://tools.example.test/mcp"},',
        '    "calc": {',
        '      "command": "node",',
        '      "args": [',
        '        "server.js"',
        '      ]',
        '    }',
        '  },',
        '  "permissions": { "allow": ["keep__*"] }',
        '}',
        '',
      ].join('\n'),
    );
    const removed = await runCliInProcess(['remove', '-c', file, 'calc']);
    expect(removed.code, removed.stderr).toBe(0);
    expect(await readFile(file, 'utf8')).toBe(written);
    // The servers written on one line: the new one goes on a line of its own, and so does each one there.
    await writeFile(file, '{\n  "mcpServers": { "keep": {"command": "node"} }\n}\n');
    expect((await runCliInProcess(['add', '-c', file, 'calc', '--', 'node'])).code).toBe(0);
    expect(await readFile(file, 'utf8')).toBe(
      '{\n  "mcpServers": {\n    "keep": {"command": "node"},\n    "calc": {\n      "command": "node"\n    }\n  }\n}\n',
    );
  });

  it('add leaves the comment on the line of the last entry with that entry', async () => {
    const directory = await temporaryDirectory();
    const file = join(directory, 'mcp-host.json');
    const written = '{\r\n  "mcpServers": {\r\n    "last": {"command": "node"}  // about last\r\n  }\r\n}\r\n';
    await writeFile(file, written);
    expect((await runCliInProcess(['add', '-c', file, 'calc', '--', 'node'])).code).toBe(0);
    expect(await readFile(file, 'utf8')).toBe(
      [
        '{',
        '  "mcpServers": {',
        '    "last": {"command": "node"},  // about last',
        '    "calc": {',
        '      "command": "node"',
        '    }',
        '  }',
        '}',
        '',
      ].join('\r\n'),
    );
    expect((await runCliInProcess(['remove', '-c', file, 'calc'])).code).toBe(0);
    expect(await readFile(file, 'utf8')).toBe(written);
  });

  it('remove keeps the comments on the lines of the entries it leaves, and takes those on the lines it removes', async () => {
    const directory = await temporaryDirectory();
    const file = join(directory, 'mcp-host.json');
    const lines = [
      '{',
      '  "mcpServers": {',
      '    "first": {"command": "node"}, // about first',
      '    // about middle',
      '    "middle": {"command": "node"}, // middle, too',
      '    "last": {"command": "node"} /* about last */',
      '  }',
      '}',
      '',
    ];
    await writeFile(file, lines.join('\r\n'));
    expect((await runCliInProcess(['remove', '-c', file, 'last'])).code).toBe(0);
    expect(await readFile(file, 'utf8')).toBe(
      [
        '{',
        '  "mcpServers": {',
        '    "first": {"command": "node"}, // about first',
        '    // about middle',
        '    "middle": {"command": "node"} // middle, too',
        '  }',
        '}',
        '',
      ].join('\r\n'),
    );
    await writeFile(file, lines.join('\n'));
    expect((await runCliInProcess(['remove', '-c', file, 'middle'])).code).toBe(0);
    expect(await readFile(file, 'utf8')).toBe(
      [
        '{',
        '  "mcpServers": {',
        '    "first": {"command": "node"}, // about first',
        '    "last": {"command": "node"} /* about last */',
        '  }',
        '}',
        '',
      ].join('\n'),
    );
    await writeFile(file, lines.join('\n'));
    expect((await runCliInProcess(['remove', '-c', file, 'first'])).code).toBe(0);
    expect(await readFile(file, 'utf8')).toBe([...lines.slice(0, 2), ...lines.slice(3)].join('\n'));
  });

  it('gives the file back after add and remove beside an entry whose line ends with a comma and a comment', async () => {
    const directory = await temporaryDirectory();
    const file = join(directory, 'mcp-host.json');
    const wrap = (...entries: string[]) => ['{', '  "mcpServers": {', ...entries, '  }', '}', ''].join('\n');
    const calc = ['    "calc": {', '      "command": "node"', '    },'];
    for (const [entries, added] of [
      // The only entry, with a trailing comma: the new one goes after its comment and keeps the trailing comma.
      [['    "a": {"command": "node"}, // about a'], ['    "a": {"command": "node"}, // about a', ...calc]],
      [
        ['    "a": {"command": "node"}, // about a', '    "b": {"command": "node"}, // about b'],
        ['    "a": {"command": "node"}, // about a', '    "b": {"command": "node"}, // about b', ...calc],
      ],
    ] as const) {
      const written = wrap(...entries);
      await writeFile(file, written);
      expect((await runCliInProcess(['add', '-c', file, 'calc', '--', 'node'])).code).toBe(0);
      expect(await readFile(file, 'utf8')).toBe(wrap(...added));
      expect((await runCliInProcess(['remove', '-c', file, 'calc'])).code).toBe(0);
      expect(await readFile(file, 'utf8')).toBe(written);
      // The first entry goes with its comment and its comma; the next stays as it was.
      expect((await runCliInProcess(['remove', '-c', file, 'a'])).code).toBe(0);
      expect(await readFile(file, 'utf8')).toBe(
        entries.length === 1 ? '{\n  "mcpServers": {}\n}\n' : wrap(...entries.slice(1)),
      );
    }
  });

  it('remove takes an entry written comma first with its own comma and comment, and add and remove give the file back', async () => {
    const directory = await temporaryDirectory();
    const file = join(directory, 'mcp-host.json');
    const wrap = (first: string, ...entries: string[]) =>
      ['{', `  "mcpServers": { ${first}`, ...entries, '  }', '}', ''].join('\n');
    const [a, b, c] = ['a', 'b', 'c'].map((name) => `"${name}": {"command": "node"} // about ${name}`) as [
      string,
      string,
      string,
    ];
    const written = wrap(a, `  , ${b}`, `  , ${c}`);
    for (const [name, left] of [
      ['c', wrap(a, `  , ${b}`)],
      ['b', wrap(a, `  , ${c}`)],
      ['a', wrap(b, `  , ${c}`)],
    ] as const) {
      await writeFile(file, written);
      expect((await runCliInProcess(['remove', '-c', file, name])).code).toBe(0);
      expect(await readFile(file, 'utf8')).toBe(left);
    }
    await writeFile(file, written);
    expect((await runCliInProcess(['add', '-c', file, 'calc', '--', 'node'])).code).toBe(0);
    expect(await readFile(file, 'utf8')).not.toBe(written);
    expect((await runCliInProcess(['remove', '-c', file, 'calc'])).code).toBe(0);
    expect(await readFile(file, 'utf8')).toBe(written);
  });

  it('remove keeps a comment written between the entry before and the comma, which is about that entry', async () => {
    const directory = await temporaryDirectory();
    const file = join(directory, 'mcp-host.json');
    const wrap = (entries: string) => `{ "mcpServers": { ${entries} } }\n`;
    for (const [written, left] of [
      [wrap('"a": {"command": "node"} /* c */, "b": {"command": "node"}'), wrap('"a": {"command": "node"} /* c */')],
      [wrap('"a": {"command": "node"} /* c */ , "b": {"command": "node"}'), wrap('"a": {"command": "node"} /* c */')],
      [wrap('"a": {"command": "node"}, /* about b */ "b": {"command": "node"}'), wrap('"a": {"command": "node"}')],
    ] as const) {
      await writeFile(file, written);
      const removed = await runCli(['remove', '-c', file, 'b']);
      expect(removed.code, removed.stderr).toBe(0);
      expect(await readFile(file, 'utf8')).toBe(left);
    }
  });

  it('takes the only entry out with its comma wherever the comma is, leaving a file the config reads', async () => {
    const directory = await temporaryDirectory();
    const file = join(directory, 'mcp-host.json');
    for (const [entry, left] of [
      [['    "a": {"command": "node"} /* about a */ ,'], []],
      [['    "a": {"command": "node"} // about a', '    ,'], []],
      [['    // servers', '    "a": {"command": "node"}', '    ,'], ['    // servers']],
    ] as const) {
      await writeFile(file, ['{', '  "mcpServers": {', ...entry, '  }', '}', ''].join('\n'));
      expect((await runCliInProcess(['remove', '-c', file, 'a'])).code).toBe(0);
      const text = await readFile(file, 'utf8');
      expect(text).toBe(
        left.length === 0
          ? '{\n  "mcpServers": {}\n}\n'
          : ['{', '  "mcpServers": {', ...left, '  }', '}', ''].join('\n'),
      );
      const listed = await runCliInProcess(['servers', '--config', file]);
      expect({ code: listed.code, stderr: listed.stderr }).toEqual({
        code: 0,
        stderr: `mcp-host: ${file} configures no MCP servers (add them under "mcpServers"), so none are connected.\n`,
      });
    }
  });

  it('creates mcp-host.json in the current folder when there is no config, and adds a remote server', async () => {
    const directory = await temporaryDirectory();
    const added = await runCliInProcess(
      ['add', '--transport', 'http', '-H', 'X-Team: blue', 'remote', 'https://tools.example.test/mcp'],
      { cwd: directory },
    );
    expect(added.code, added.stderr).toBe(0);
    expect(JSON.parse(await readFile(join(directory, 'mcp-host.json'), 'utf8'))).toEqual({
      mcpServers: { remote: { type: 'http', url: 'https://tools.example.test/mcp', headers: { 'X-Team': 'blue' } } },
    });
  });

  it("adds under VS Code's `servers` key and removes from it, keeping the rest", async () => {
    const directory = await temporaryDirectory();
    const file = join(directory, 'mcp.json');
    await writeFile(
      file,
      '{\n  "servers": {\n    // keep me\n    "keep": { "type": "stdio", "command": "node" },\n  },\n  "inputs": [],\n}\n',
    );
    // The real process, once for each of add and remove.
    expect((await runCli(['add', '-c', file, 'calc', '--', process.execPath, calculator()])).code).toBe(0);
    let text = await readFile(file, 'utf8');
    expect(text).toContain('// keep me');
    expect(text).toMatch(/"servers": \{[\s\S]*"calc": \{/);
    expect(text).not.toContain('mcpServers');

    const removed = await runCli(['remove', '-c', file, 'calc']);
    expect(removed.code, removed.stderr).toBe(0);
    text = await readFile(file, 'utf8');
    expect(text).not.toContain('calc');
    expect(text).toContain('// keep me');
    expect(text).toContain('"keep"');

    const unknown = await runCliInProcess(['remove', '-c', file, 'calc']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no server "calc"');
  });

  it('adds to and removes from a VS Code settings.json\'s flat `"mcp.servers"` key, the section the config reads', async () => {
    const directory = await temporaryDirectory();
    const file = join(directory, 'settings.json');
    const server = JSON.stringify(calculator());
    const written = [
      '{',
      '  "editor.fontSize": 14,',
      '  "mcp.servers": {',
      `    "old": { "command": "node", "args": [${server}] }`,
      '  }',
      '}',
      '',
    ].join('\n');
    await writeFile(file, written);
    // The real process, once for each of add and remove.
    const added = await runCli(['add', '-c', file, 'new', '--', 'node', calculator()]);
    expect(added.code, added.stderr).toBe(0);
    expect(await readFile(file, 'utf8')).toBe(
      [
        '{',
        '  "editor.fontSize": 14,',
        '  "mcp.servers": {',
        `    "old": { "command": "node", "args": [${server}] },`,
        '    "new": {',
        '      "command": "node",',
        '      "args": [',
        `        ${server}`,
        '      ]',
        '    }',
        '  }',
        '}',
        '',
      ].join('\n'),
    );
    const listed = await runCliInProcess(['servers', '--config', file]);
    expect({ code: listed.code, stderr: listed.stderr }).toEqual({ code: 0, stderr: '' });
    expect(listed.stdout.split('\n').map((line) => line.split(':')[0])).toEqual(['old', 'new', '']);

    const removed = await runCli(['remove', '-c', file, 'new']);
    expect(removed.code, removed.stderr).toBe(0);
    expect(await readFile(file, 'utf8')).toBe(written);
  });

  it('refuses a file with servers under two keys, as the config does, and writes nothing', async () => {
    const directory = await temporaryDirectory();
    const file = join(directory, 'settings.json');
    for (const [text, keys, keyPath] of [
      [
        '{ "mcpServers": {}, "mcp.servers": { "old": { "command": "node" } } }\n',
        'mcpServers` and `["mcp.servers"]',
        '["mcp.servers"]',
      ],
      ['{ "servers": {}, "mcp": { "servers": {} } }\n', 'servers` and `mcp.servers', 'mcp.servers'],
      ['{ "mcp": { "servers": {} }, "mcp.servers": {} }\n', 'mcp.servers` and `["mcp.servers"]', '["mcp.servers"]'],
    ] as const) {
      await writeFile(file, text);
      const loaded = await runCliInProcess(['servers', '--config', file]);
      expect({ code: loaded.code, stderr: loaded.stderr }).toEqual({
        code: 2,
        stderr:
          `mcp-host: ${file}: ${keyPath}: expected server entries under only one of \`${keys.replace(' and ', ' or ')}\`, ` +
          'found both. One would be read and the rest ignored without a word; keep the servers under one.\n',
      });
      for (const args of [
        ['add', '-c', file, 'new', '--', 'node'],
        ['remove', '-c', file, 'old'],
      ]) {
        const refused = await runCliInProcess(args);
        expect({ code: refused.code, stderr: refused.stderr }).toEqual({
          code: 2,
          stderr: `mcp-host: ${file} has servers under \`${keys}\`, which the config refuses; keep them under one first\n`,
        });
      }
      expect(await readFile(file, 'utf8')).toBe(text);
    }
  });

  it("refuses a file with a key written twice where the config reads, with the config's error, and writes nothing", async () => {
    const directory = await temporaryDirectory();
    const file = join(directory, 'mcp-host.json');
    // The config runs the last of the two; an edit of the first would change a server that is not the one run.
    const twiceNamed = [
      '{',
      '  "mcpServers": {',
      '    "calc": { "command": "node", "args": ["old.js"] },',
      '    "other": { "command": "node" },',
      '    "calc": { "command": "node", "args": ["new.js"] }',
      '  }',
      '}',
      '',
    ].join('\n');
    const twiceInEntry =
      '{\n  "mcpServers": {\n    "calc": {\n      "command": "node",\n      "command": "sh"\n    }\n  }\n}\n';
    for (const [text, keyPath, second, first] of [
      [twiceNamed, 'mcpServers.calc', '5:5', 'line 3, column 5'],
      [twiceInEntry, 'mcpServers.calc.command', '5:7', 'line 4, column 7'],
    ] as const) {
      await writeFile(file, text);
      const expected = {
        code: 2,
        stderr:
          `mcp-host: ${file}:${second}: ${keyPath}: expected each key once in an object, found it a second time ` +
          `(first at ${first}). Only the last would count; remove the one that is wrong.\n`,
      };
      const loaded = await runCliInProcess(['servers', '--config', file]);
      expect({ code: loaded.code, stderr: loaded.stderr }).toEqual(expected);
      for (const args of [
        ['add', '-c', file, 'new', '--', 'node'],
        ['remove', '-c', file, 'calc'],
      ]) {
        const refused = await runCliInProcess(args);
        expect({ args, code: refused.code, stderr: refused.stderr }).toEqual({ args, ...expected });
      }
      expect(await readFile(file, 'utf8')).toBe(text);
    }
  });

  it("refuses a file nested deeper than the config reads, with the config's error, and writes nothing", async () => {
    const directory = await temporaryDirectory();
    const file = join(directory, 'mcp-host.json');
    // Deep enough that a walk of it, as an edit makes, would overflow the stack.
    const text = `{\n  "mcpServers": { "calc": { "command": "node" } },\n  "x": ${'['.repeat(200_000)}${']'.repeat(200_000)}\n}\n`;
    await writeFile(file, text);
    const loaded = await runCliInProcess(['servers', '--config', file]);
    expect(loaded.code).toBe(2);
    expect(loaded.stderr).toContain('expected objects and arrays nested at most 128 levels deep, found one level more');
    for (const args of [
      ['add', '-c', file, 'new', '--', 'node'],
      ['remove', '-c', file, 'calc'],
    ]) {
      const refused = await runCliInProcess(args);
      expect({ args, code: refused.code, stderr: refused.stderr }).toEqual({ args, code: 2, stderr: loaded.stderr });
    }
    expect(await readFile(file, 'utf8')).toBe(text);
  });

  it('keeps the approval of the file it edits in the state folder --state-dir names, as the other commands read it', async () => {
    const directory = await temporaryDirectory();
    const chosen = join(directory, 'chosen-state');
    const fromEnvironment = join(directory, 'environment-state');
    const added = await runCli(['add', '--state-dir', chosen, 'calc', '--', process.execPath, calculator()], {
      cwd: directory,
      stateDir: fromEnvironment,
    });
    expect(added.code, added.stderr).toBe(0);
    expect(existsSync(join(chosen, 'approved-configs.json'))).toBe(true);
    expect(existsSync(join(fromEnvironment, 'approved-configs.json'))).toBe(false);
    // A listing run with the same folder finds the file approved (an unapproved one would exit 2 saying so).
    const listed = await runCliInProcess(['skills', 'list', '--state-dir', chosen], { cwd: directory });
    expect({ code: listed.code, stderr: listed.stderr }).toEqual({ code: 0, stderr: '' });
    const removed = await runCliInProcess(['remove', 'calc', '--state-dir', chosen], { cwd: directory });
    expect(removed.code, removed.stderr).toBe(0);
    const after = await runCliInProcess(['skills', 'list', '--state-dir', chosen], { cwd: directory });
    expect({ code: after.code, stderr: after.stderr }).toEqual({ code: 0, stderr: '' });
  });

  it('refuses a name the config would refuse, before writing anything', async () => {
    const directory = await temporaryDirectory();
    const [reserved, prototype] = [
      await runCliInProcess(['add', 'MCP-Host-tools', '--', process.execPath], { cwd: directory }),
      await runCliInProcess(['add', '__proto__', '--', process.execPath], { cwd: directory }),
    ];
    expect(reserved.code).toBe(2);
    expect(reserved.stderr).toBe(
      'mcp-host: server names starting with "mcp-host" are reserved for the host\'s own tools, so "MCP-Host-tools" would make the config unreadable: choose another name\n',
    );
    expect(prototype.code).toBe(2);
    expect(prototype.stderr).toBe(
      'mcp-host: "__proto__" cannot name a server: JSON readers drop the key, so the config refuses it; choose another name\n',
    );
    expect(existsSync(join(directory, 'mcp-host.json'))).toBe(false);
  });

  it('names the server map that is not an object, exits 2 and writes nothing', async () => {
    const directory = await temporaryDirectory();
    const file = join(directory, 'mcp-host.json');
    const original = '{\n  // mine\n  "mcpServers": null\n}\n';
    await writeFile(file, original);
    // The real process, once for each of add and remove.
    const added = await runCli(['add', '-c', file, 'calc', '--', process.execPath, calculator()]);
    const removed = await runCli(['remove', '-c', file, 'calc']);
    for (const refused of [added, removed]) {
      expect({ code: refused.code, stderr: refused.stderr }).toEqual({
        code: 2,
        stderr: `mcp-host: "mcpServers" in ${file} is null; it must be an object of servers\n`,
      });
    }
    expect(await readFile(file, 'utf8')).toBe(original);

    for (const [section, key, found] of [
      ['"mcpServers": []', 'mcpServers', 'an array of 0 items'],
      ['"mcpServers": "calc"', 'mcpServers', 'the string "calc"'],
      ['"servers": {}, "mcpServers": 3', 'mcpServers', 'the number 3'],
      ['"servers": false', 'servers', 'false'],
      ['"mcp": { "servers": null }', 'mcp.servers', 'null'],
    ] as const) {
      const text = `{ ${section} }\n`;
      await writeFile(file, text);
      for (const args of [
        ['add', '-c', file, 'calc', '--', 'node'],
        ['remove', '-c', file, 'calc'],
      ]) {
        const refused = await runCliInProcess(args);
        expect({ code: refused.code, stderr: refused.stderr }).toEqual({
          code: 2,
          stderr: `mcp-host: "${key}" in ${file} is ${found}; it must be an object of servers\n`,
        });
      }
      expect(await readFile(file, 'utf8')).toBe(text);
    }
    // The flat key of a settings.json, named as the config names it.
    await writeFile(file, '{ "mcp.servers": [] }\n');
    const flat = await runCliInProcess(['add', '-c', file, 'calc', '--', 'node']);
    expect({ code: flat.code, stderr: flat.stderr }).toEqual({
      code: 2,
      stderr: `mcp-host: ["mcp.servers"] in ${file} is an array of 0 items; it must be an object of servers\n`,
    });
  });

  it('refuses a URL as the command of a local server, pointing to --transport http, before writing anything', async () => {
    const directory = await temporaryDirectory();
    for (const args of [
      ['add', '--transport', 'stdio', 'remote', 'http://127.0.0.1:3000/mcp'],
      ['add', 'remote', '--', 'https://tools.example.test/mcp'],
    ]) {
      const refused = await runCliInProcess(args, { cwd: directory });
      expect(refused.stderr).toBe(
        `mcp-host: "${args.at(-1)}" is a URL, not a command that starts a local server; add a remote server with: mcp-host add --transport http NAME URL\n`,
      );
      expect(refused.code).toBe(2);
    }
    expect(existsSync(join(directory, 'mcp-host.json'))).toBe(false);
  });

  it('explains its repeatable options without an empty default', async () => {
    const help = await runCliInProcess(['add', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('an environment variable for a local server');
    expect(help.stdout).not.toContain('(default: [])');
  });

  it('exits 2 on add without a command or URL', async () => {
    const directory = await temporaryDirectory();
    const result = await runCliInProcess(['add', 'lonely'], { cwd: directory });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('mcp-host:');
  });

  it('exits 2 naming the folder when the file to create is in a folder that is not there', async () => {
    const directory = await temporaryDirectory();
    const file = join(directory, 'no-such', 'mcp-host.json');
    const result = await runCli(['add', '-c', file, 'calc', '--', 'node', 'calc.js'], { cwd: directory });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toBe(`mcp-host: cannot write ${file}: there is no folder ${join(directory, 'no-such')}\n`);
  });
});
