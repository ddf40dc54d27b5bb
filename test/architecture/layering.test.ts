/**
 * The layering of the README's "Architecture" section, enforced: a lower layer never imports a higher one, only
 * `src/providers/<name>/` imports a vendor SDK, the per-call duties are steps of the loop assembled in one place,
 * and the interfaces reach every duty through the host, never around it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/project.js';

/**
 * Lowest first, as the README's layer table lists their folders. `testing` holds public stand-ins built on the layers
 * below the host.
 */
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
  'content/budget-tool-result.ts',
  'content/output-budget.ts',
  'content/map-tool-result.ts',
  'audit/audit-recorder.ts',
];
const INTERFACES = ['cli', 'web', 'gateway'];
/**
 * What the browser app (`web/src/`) may import from `src/`: self-contained modules with no imports, so the browser
 * build never pulls in the library.
 */
const BROWSER_APP_IMPORTS = [
  'web/api-types.ts',
  'web/call-warning-limit.ts',
  'text/direction-controls.ts',
  'text/invisible-characters.ts',
  'json/own-property.ts',
];

function sourceFiles(directory: string, name = /\.ts$/): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path, name);
    return name.test(entry.name) ? [path] : [];
  });
}

const source = join(repoRoot, 'src');
/** The library's exports (`src/index.ts`), in no layer: it re-exports from the highest, so no layer may import it. */
const LIBRARY_EXPORTS = 'index.ts';
const files = sourceFiles(source).map((path) => ({
  path: relative(repoRoot, path),
  layer: relative(source, path).split('/')[0]!,
  /** Every module named: `from '…'`, `import('…')` and an import for its effects alone (`import '…'`). */
  imports: [...readFileSync(path, 'utf8').matchAll(/(?:from|import\(?)\s*'([^']+)'/g)].map((match) => match[1]!),
  /**
   * Relative imports and re-exports of values (not `import type` / `export type`), static, for effects alone or
   * dynamic (`import()`), resolved to paths under `src/` with a `.ts` ending.
   */
  valueImports: [
    ...readFileSync(path, 'utf8').matchAll(
      /^(?:import|export) (?!type )[^;]*? from '(\.[^']+)'|^import '(\.[^']+)'|import\(\s*'(\.[^']+)'/gms,
    ),
  ].map((match) =>
    relative(source, normalize(join(dirname(path), (match[1] ?? match[2] ?? match[3])!))).replace(/\.js$/, '.ts'),
  ),
}));

/** A module's place in the order: a layer's, above every layer for the library's exports, none for others. */
function rankOf(pathUnderSource: string): number {
  if (pathUnderSource.replace(/\.js$/, '.ts') === LIBRARY_EXPORTS) return LAYERS.length;
  return LAYERS.indexOf(pathUnderSource.split('/')[0]!);
}

function architectureSection(): string {
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  const start = readme.indexOf('\n## Architecture\n');
  return readme.slice(start, readme.indexOf('\n## ', start + 1));
}

describe('layering', () => {
  it('never imports a higher layer from a lower one', () => {
    const violations: string[] = [];
    for (const file of files) {
      const rank = LAYERS.indexOf(file.layer);
      if (rank === -1) continue;
      for (const target of file.imports.filter((name) => name.startsWith('.'))) {
        const resolved = relative(source, normalize(join(dirname(join(repoRoot, file.path)), target)));
        if (rankOf(resolved) > rank) violations.push(`${file.path} imports ${target}`);
      }
    }
    expect(violations).toEqual([]);
  });

  it("orders the layers as the README's layer table lists their folders", () => {
    const section = architectureSection();
    const table = section.slice(
      section.indexOf('\n| layer | folder |'),
      section.indexOf('\n\n', section.indexOf('| layer |')),
    );
    const listed = table
      .split('\n')
      .slice(3)
      .flatMap((row) => [...(row.split('|')[2] ?? '').matchAll(/`src\/([\w-]+)\/`/g)].map((match) => match[1]!));
    expect(listed).toEqual(LAYERS);
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
    // The README names each: the steps in the table of a call, the rest in the rule itself.
    const section = architectureSection();
    const rule = section.slice(section.indexOf('\nBeyond the import order'));
    const unnamed = DUTY_MODULES.filter((module) => {
      const name = `${module.split('/').at(-1)}\``;
      return CALL_STEPS.includes(module) ? !section.includes(name) : !rule.includes(name);
    });
    expect(unnamed).toEqual([]);
  });

  it('lets the browser app import from src/ only the self-contained modules the README names', () => {
    const app = join(repoRoot, 'web', 'src');
    const imported = sourceFiles(app, /\.tsx?$/).flatMap((path) =>
      [...readFileSync(path, 'utf8').matchAll(/(?:from|import\()\s*'(\.[^']+)'/g)]
        .map((match) => relative(source, normalize(join(dirname(path), match[1]!))))
        .filter((target) => !target.startsWith('..'))
        .map((target) => `${target.replace(/\.js$/, '')}.ts`),
    );
    expect(imported.length).toBeGreaterThan(0);
    expect([...new Set(imported)].filter((target) => !BROWSER_APP_IMPORTS.includes(target))).toEqual([]);
    const section = architectureSection();
    for (const module of BROWSER_APP_IMPORTS) {
      expect(readFileSync(join(source, module), 'utf8'), module).not.toMatch(/^(?:import|export) .* from '/m);
      expect(section, module).toContain(`${module.split('/').at(-1)}\``);
    }
  });

  it("names only modules that exist in the README's architecture section", () => {
    const section = architectureSection();
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
