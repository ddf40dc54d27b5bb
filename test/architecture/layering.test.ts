/**
 * The layering of the README's "Architecture" section, enforced: a lower layer never imports a higher one, only
 * `src/providers/<name>/` imports a vendor SDK, the per-call duties are steps of the loop assembled in one place,
 * and the interfaces reach every duty through the host, never around it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/project.js';

/** Lowest first. `testing` holds public stand-ins built on the layers below the host. */
const LAYERS = [
  'text',
  'json',
  'config',
  'connections',
  'catalog',
  'content',
  'providers',
  'policy',
  'audit',
  'skills',
  'loop',
  'client-features',
  'sessions',
  'testing',
  'host',
  'gateway',
  'web',
  'cli',
];
const VENDOR_SDKS = ['@anthropic-ai/sdk', 'openai', '@google/genai'];

/** The loop's per-call steps: each is its own file, and only `loop/call-executor.ts` puts them together. */
const CALL_STEPS = [
  'loop/call-timeouts.ts',
  'loop/check-arguments.ts',
  'loop/authorize-call.ts',
  'loop/shape-result.ts',
  'loop/record-call.ts',
];
const CALL_ASSEMBLY = 'src/loop/call-executor.ts';

/** Modules that carry out a host duty (running the loop, deciding consent, budgeting, mapping, recording a call). */
const DUTY_MODULES = [
  ...CALL_STEPS,
  'loop/call-executor.ts',
  'loop/execute-tool-call.ts',
  'loop/run-agent.ts',
  'policy/authorize-tool-call.ts',
  'policy/decide-tool-call.ts',
  'content/budget-tool-results.ts',
  'content/map-tool-result.ts',
  'audit/audit-recorder.ts',
];
const INTERFACES = ['cli', 'web', 'gateway'];

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const source = join(repoRoot, 'src');
const files = sourceFiles(source).map((path) => ({
  path: relative(repoRoot, path),
  layer: relative(source, path).split('/')[0]!,
  imports: [...readFileSync(path, 'utf8').matchAll(/(?:from|import\()\s*'([^']+)'/g)].map((match) => match[1]!),
  /**
   * Relative imports and re-exports of values (not `import type` / `export type`), static or dynamic (`import()`),
   * resolved to paths under `src/` with a `.ts` ending.
   */
  valueImports: [
    ...readFileSync(path, 'utf8').matchAll(
      /^(?:import|export) (?!type )[^;]*? from '(\.[^']+)'|import\(\s*'(\.[^']+)'/gms,
    ),
  ].map((match) => relative(source, normalize(join(dirname(path), (match[1] ?? match[2])!))).replace(/\.js$/, '.ts')),
}));

describe('layering', () => {
  it('never imports a higher layer from a lower one', () => {
    const violations: string[] = [];
    for (const file of files) {
      const rank = LAYERS.indexOf(file.layer);
      if (rank === -1) continue;
      for (const target of file.imports.filter((name) => name.startsWith('.'))) {
        const resolved = relative(source, normalize(join(dirname(join(repoRoot, file.path)), target)));
        const targetRank = LAYERS.indexOf(resolved.split('/')[0]!);
        if (targetRank > rank) violations.push(`${file.path} imports ${target}`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('imports vendor SDKs only under src/providers/<name>/', () => {
    const violations = files
      .filter((file) => !/^src\/providers\/[^/]+\//.test(file.path))
      .flatMap((file) =>
        file.imports
          .filter((name) => VENDOR_SDKS.some((sdk) => name === sdk || name.startsWith(`${sdk}/`)))
          .map((name) => `${file.path} imports ${name}`),
      );
    expect(violations).toEqual([]);
  });

  it('assembles the per-call steps in one place only: the call executor of the loop', () => {
    const violations = files
      .filter((file) => file.path !== CALL_ASSEMBLY)
      .flatMap((file) =>
        file.valueImports
          .filter((target) => CALL_STEPS.includes(target))
          .map((target) => `${file.path} imports ${target}`),
      );
    expect(violations).toEqual([]);
    const assembly = files.find((file) => file.path === CALL_ASSEMBLY)!;
    expect(CALL_STEPS.filter((step) => !assembly.valueImports.includes(step))).toEqual([]);
  });

  it('lets the interfaces reach every duty through the host, never around it', () => {
    const violations = files
      .filter((file) => INTERFACES.includes(file.layer))
      .flatMap((file) =>
        file.valueImports
          .filter((target) => DUTY_MODULES.includes(target))
          .map((target) => `${file.path} imports ${target}`),
      );
    expect(violations).toEqual([]);
  });

  it("names only modules that exist in the README's architecture section", () => {
    const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
    const section = readme.slice(
      readme.indexOf('\n## Architecture\n'),
      readme.indexOf('\n## ', readme.indexOf('\n## Architecture\n') + 1),
    );
    const named = [...section.matchAll(/`([\w./-]+\.ts|src\/[\w/-]+\/)`/g)].map((match) => match[1]!);
    expect(named.length).toBeGreaterThan(40);
    const paths = new Set(files.map((file) => relative(source, join(repoRoot, file.path))));
    const missing = named.filter((name) => {
      if (name.startsWith('src/')) return !existsSync(join(repoRoot, name));
      if (name.includes('/')) return !paths.has(name) && !existsSync(join(repoRoot, name));
      return ![...paths].some((path) => path.split('/').at(-1) === name);
    });
    expect(missing).toEqual([]);
  });

  it('knows every folder under src', () => {
    const folders = readdirSync(source, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(folders.filter((folder) => !LAYERS.includes(folder))).toEqual([]);
  });
});
