/** A skill pins file that is not valid JSON is named with the place of the mistake, as a config file's is. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SkillPins } from '../../src/skills/skill-pins.js';

describe('a damaged skill pins file', () => {
  it('is refused naming the file, the line and column, and what was expected there', () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'mcp-host-pins-'));
    const file = join(stateDir, 'skill-pins.json');
    writeFileSync(file, '{\n  "version": 1,\n  "scopes": {,}\n}\n', { mode: 0o600 });
    expect(() => SkillPins.inStateDir(stateDir)).toThrow(
      `${file} is not valid JSON (at line 3, column 14: expected a property name in double quotes, found \`,\`)`,
    );
  });
});
