/**
 * The package's commands as npm runs them: each `bin` target is executed directly (its `#!` line), not through
 * `node`. npm sets the execute bit only when it links a bin, so a build that writes the file anew must set it too,
 * or `npx mcp-host` fails with "Permission denied" after `npm test` or `npm run build`.
 */
import { execFile } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/project.js';

const run = promisify(execFile);
const bins = Object.entries(
  (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { bin: Record<string, string> }).bin,
);

describe('package bin', () => {
  it('declares the mcp-host command', () => {
    expect(bins.map(([name]) => name)).toContain('mcp-host');
  });

  it.each(bins)('%s is executable by everyone after a build', (_name, target) => {
    const path = join(repoRoot, target);
    expect(statSync(path).mode & 0o111).toBe(0o111);
    expect(readFileSync(path, 'utf8').split('\n', 1)[0]).toBe('#!/usr/bin/env node');
  });

  it.each(bins)('%s runs when executed directly', async (_name, target) => {
    const { stdout } = await run(join(repoRoot, target), ['--version'], { timeout: 30_000 });
    expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});
