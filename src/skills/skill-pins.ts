/**
 * What the user approved of each skill, remembered between runs: the fingerprint of its folder when approved. A
 * skill whose files changed since then no longer matches its pin and is withheld until approved again with
 * `mcp-host trust approve skill:NAME`, so a skill cannot be swapped for another under the same name unnoticed.
 *
 * Kept in `skill-pins.json` in the state folder, per config file (a "scope", as the trust store keeps its
 * approvals), written atomically with mode 0600. Read again before every change, so two hosts sharing the state
 * folder lose nothing but a simultaneous write.
 */

import path from 'node:path';
import { jsonSyntaxPlace } from '../config/json-syntax-error.js';
import { readFailureText, readStateFile } from '../json/read-bounded-file.js';
import { errorCodeOf, writeJsonFileAtomically } from '../json/write-json-file.js';

const SKILL_PINS_FILE_NAME = 'skill-pins.json';
const FORMAT_VERSION = 1;
/** A hash per skill and scope: far more skills than anyone pins. */
const MAX_PINS_BYTES = 16 * 1024 * 1024;

/** `approved`: the fingerprint matches; `changed`: the files differ from the approved ones. */
export type SkillCheck = 'approved' | 'new' | 'changed' | 'revoked';
type SkillApprovalOrigin = 'first-sight' | 'command-line' | 'user';

interface SkillPin {
  state: 'approved' | 'revoked';
  fingerprint: string;
  /** Where the skill was when approved, for people reading `skills show`. */
  folder: string;
  approvedAt: string;
  approvedBy: SkillApprovalOrigin;
}

interface SkillPinsData {
  version: typeof FORMAT_VERSION;
  /** Keyed by scope (the config file's absolute path, or `''`), then by skill name. */
  scopes: Record<string, Record<string, SkillPin>>;
}

export class SkillPins {
  private constructor(
    readonly file: string | undefined,
    readonly scope: string,
    private data: SkillPinsData,
  ) {}

  static inStateDir(stateDir: string, options: { scope?: string } = {}): SkillPins {
    const file = path.join(stateDir, SKILL_PINS_FILE_NAME);
    return new SkillPins(file, options.scope ?? '', readPins(file));
  }

  static inMemory(options: { scope?: string } = {}): SkillPins {
    return new SkillPins(undefined, options.scope ?? '', { version: FORMAT_VERSION, scopes: {} });
  }

  pin(name: string): SkillPin | undefined {
    this.reload();
    const pins = this.data.scopes[this.scope];
    return pins !== undefined && Object.hasOwn(pins, name) ? pins[name] : undefined;
  }

  check(name: string, fingerprint: string): SkillCheck {
    const pin = this.pin(name);
    if (pin === undefined) return 'new';
    if (pin.state === 'revoked') return 'revoked';
    return pin.fingerprint === fingerprint ? 'approved' : 'changed';
  }

  approve(name: string, fingerprint: string, folder: string, by: SkillApprovalOrigin): void {
    this.mutate((pins) => {
      pins[name] = { state: 'approved', fingerprint, folder, approvedAt: new Date().toISOString(), approvedBy: by };
    });
  }

  /** Returns false when the skill has no pin to revoke. */
  revoke(name: string): boolean {
    let found = false;
    this.mutate((pins) => {
      const pin = Object.hasOwn(pins, name) ? pins[name] : undefined;
      if (pin !== undefined) {
        found = true;
        pin.state = 'revoked';
      }
    });
    return found;
  }

  private reload(): void {
    if (this.file !== undefined) this.data = readPins(this.file);
  }

  private mutate(change: (pins: Record<string, SkillPin>) => void): void {
    this.reload();
    const pins = Object.hasOwn(this.data.scopes, this.scope) ? this.data.scopes[this.scope]! : {};
    change(pins);
    this.data.scopes[this.scope] = pins;
    if (this.file !== undefined) writePins(this.file, this.data);
  }
}

function readPins(file: string): SkillPinsData {
  let text: string | undefined;
  try {
    text = readStateFile(file, MAX_PINS_BYTES);
  } catch (error) {
    throw new Error(`skill pins ${file} cannot be read (${readFailureText(error, MAX_PINS_BYTES)}).`);
  }
  if (text === undefined) return { version: FORMAT_VERSION, scopes: {} };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw damaged(file, `is not valid JSON (${jsonSyntaxPlace(text, error)})`);
  }
  const record = data as Partial<SkillPinsData> | null;
  if (typeof record !== 'object' || record === null || record.version !== FORMAT_VERSION) {
    throw damaged(file, `is not a version ${FORMAT_VERSION} skill pins file`);
  }
  if (typeof record.scopes !== 'object' || record.scopes === null) throw damaged(file, 'has no "scopes" object');
  for (const [scope, pins] of Object.entries(record.scopes)) {
    for (const [name, pin] of Object.entries(pins ?? {})) {
      if (typeof pin?.fingerprint !== 'string' || (pin.state !== 'approved' && pin.state !== 'revoked')) {
        throw damaged(file, `has a damaged entry for skill "${name}" in scope "${scope}"`);
      }
    }
  }
  return record as SkillPinsData;
}

function damaged(file: string, problem: string): Error {
  return new Error(
    `skill pins ${file} ${problem}. Fix the file, or delete it to start over (every skill is then approved again on first use).`,
  );
}

/** Replaces the file atomically (a temporary file beside it, then rename) with mode 0600. */
function writePins(file: string, data: SkillPinsData): void {
  try {
    writeJsonFileAtomically(file, data, 0o600);
  } catch (error) {
    throw new Error(
      `could not save the skill pins ${file} (${errorCodeOf(error)}); check that its folder is writable.`,
    );
  }
}
