/**
 * The layering of ARCHITECTURE.md, enforced: a lower layer never imports a higher one, and only
 * `src/providers/<name>/` imports a vendor SDK.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/project.js';

/** Lowest first. `testing` holds public stand-ins built on the layers below the host. */
// Planned layers are listed before their folders exist: an absent folder has no files to check.
const LAYERS = [
  'json',
  'text',
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

  it('knows every folder under src', () => {
    const folders = readdirSync(source, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(folders.filter((folder) => !LAYERS.includes(folder))).toEqual([]);
  });
});
