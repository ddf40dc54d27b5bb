/**
 * The decision `npm run build:web` and `build:bundle` make before building (scripts/build-freshness.mjs): an output
 * recorded with its inputs is built again when any input's bytes change (even at the same size and time), an input
 * is added, removed or rewritten, or the output or its stamp changed; and only when nothing did is it left alone.
 */
import { mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { type BuildTarget, checkBuild, recordBuild } from '../../scripts/build-freshness.mjs';
import { temporaryDirectory } from '../helpers/project.js';

let target: BuildTarget;
const path = (relative: string): string => join(target.root, relative);
const anHourAgo = new Date(Date.now() - 3_600_000);

/** Writes `text` to `relative` with a modification time in the past, as a checkout long before the build leaves it. */
function writeOld(relative: string, text: string): void {
  writeFileSync(path(relative), text);
  utimesSync(path(relative), anHourAgo, anHourAgo);
}

/** Builds (writes the output) and records it, as build-if-changed.mjs does. */
function build(): void {
  const { inputs } = checkBuild(target);
  writeFileSync(path('out/app.js'), `built from ${readFileSync(path('src/a.ts'), 'utf8')}`);
  recordBuild(target, inputs);
}

beforeEach(async () => {
  const root = await temporaryDirectory('mcp-host-build-freshness-');
  target = { root, inputs: ['src', 'config.js', 'optional.json'], output: 'out', stamp: 'out.build-stamp.json' };
  mkdirSync(path('src/nested'), { recursive: true });
  mkdirSync(path('out'));
  writeOld('src/a.ts', 'export const a = 1;');
  writeOld('src/nested/b.ts', 'export const b = 2;');
  writeOld('config.js', 'export default {};');
});

describe('the decision to build again', () => {
  it('builds when there is no stamp, and not when nothing changed since', () => {
    expect(checkBuild(target).reason).toBe('no record of an earlier build');
    build();
    expect(checkBuild(target).reason).toBeUndefined();
    expect(checkBuild(target).reason).toBeUndefined();
  });

  it('builds again when an input’s bytes change, even at the same size and modification time', () => {
    build();
    writeOld('src/nested/b.ts', 'export const b = 3;');
    expect(checkBuild(target).reason).toBe('its inputs changed');
    writeOld('src/nested/b.ts', 'export const b = 2;');
    expect(checkBuild(target).reason).toBeUndefined();
  });

  it('builds again when an input is added, removed, or a missing one appears', () => {
    build();
    writeOld('src/nested/c.ts', '');
    expect(checkBuild(target).reason).toBe('its inputs changed');
    rmSync(path('src/nested/c.ts'));
    expect(checkBuild(target).reason).toBeUndefined();
    rmSync(path('config.js'));
    expect(checkBuild(target).reason).toBe('its inputs changed');
    writeOld('config.js', 'export default {};');
    writeOld('optional.json', '{}');
    expect(checkBuild(target).reason).toBe('its inputs changed');
  });

  it('builds again when an input was rewritten after the build with the same bytes', () => {
    build();
    writeFileSync(path('config.js'), 'export default {};');
    utimesSync(path('config.js'), new Date(Date.now() + 60_000), new Date(Date.now() + 60_000));
    expect(checkBuild(target).reason).toBe('an input was written after it was built');
  });

  it('builds again when the output changed, is gone, or the stamp is unreadable', () => {
    build();
    writeFileSync(path('out/extra.js'), '');
    expect(checkBuild(target).reason).toBe('its output changed since it was built');
    rmSync(path('out/extra.js'));
    expect(checkBuild(target).reason).toBeUndefined();
    writeFileSync(path('out/app.js'), 'edited');
    expect(checkBuild(target).reason).toBe('its output changed since it was built');
    rmSync(path('out'), { recursive: true });
    expect(checkBuild(target).reason).toBe('no output');
    mkdirSync(path('out'));
    build();
    writeFileSync(path(target.stamp), '{ not json');
    expect(checkBuild(target).reason).toBe('no record of an earlier build');
  });

  it('records the inputs as they were before the build, so one edited during it is built again', () => {
    const { inputs } = checkBuild(target);
    writeOld('src/a.ts', 'export const a = 2;');
    writeFileSync(path('out/app.js'), 'built from the old a');
    recordBuild(target, inputs);
    expect(checkBuild(target).reason).toBe('its inputs changed');
  });
});
