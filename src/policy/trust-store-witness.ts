/**
 * Notices a trust store changed by something other than the host (a hand edit, or a local server approving its own
 * calls): each time the host writes `trust.json` it keeps the file's sha256 and content beside it in
 * `trust-written.json`. At start the host compares them and reports what changed since its last write, once.
 *
 * A program running as the user can rewrite both files; this is a tripwire, not a lock.
 */
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { readStateFile } from '../json/read-bounded-file.js';
import { jsonFileText, writeJsonFileAtomically } from '../json/write-json-file.js';
import { describeTrustStoreChanges } from './trust-store-changes.js';
import {
  MAX_TRUST_STORE_BYTES,
  readTrustStoreFile,
  TRUST_STORE_FILE_MODE,
  type TrustStoreData,
} from './trust-store-file.js';

const TRUST_WITNESS_FILE_NAME = 'trust-written.json';

interface Witness {
  version: 1;
  sha256: string;
  data: TrustStoreData;
}

function witnessFileOf(trustFile: string): string {
  return path.join(path.dirname(trustFile), TRUST_WITNESS_FILE_NAME);
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * Remembers what the host just wrote to `trustFile` (`text`, by default the text it writes for `data`). Best
 * effort: a failure here never fails the write itself.
 */
export function recordTrustStoreWrite(trustFile: string, data: TrustStoreData, text = jsonFileText(data)): void {
  const witness: Witness = { version: 1, sha256: sha256(text), data };
  try {
    writeJsonFileAtomically(witnessFileOf(trustFile), witness, TRUST_STORE_FILE_MODE);
  } catch {
    // Without a witness the next start reports nothing; approvals still work.
  }
}

/**
 * Lines saying how `trustFile` differs from what the host last wrote to it; empty when it does not (or when there
 * is no record yet). The current content becomes the new record, so each change is reported once.
 */
export function trustStoreChangesSinceLastWrite(trustFile: string): string[] {
  let current: string | undefined;
  try {
    current = readStateFile(trustFile, MAX_TRUST_STORE_BYTES);
  } catch {
    current = undefined;
  }
  const witness = readWitness(witnessFileOf(trustFile));
  if (current === undefined && witness === undefined) return [];
  const data = readTrustStoreFile(trustFile);
  if (witness !== undefined && current !== undefined && sha256(current) === witness.sha256) return [];
  if (witness === undefined) {
    // First run with a witness: what is there now is the baseline.
    if (current !== undefined) recordTrustStoreWrite(trustFile, data, current);
    return [];
  }
  const changes = describeTrustStoreChanges(witness.data, data);
  if (current === undefined) {
    rmSync(witnessFileOf(trustFile), { force: true });
    return ['the file was deleted', ...changes];
  }
  recordTrustStoreWrite(trustFile, data, current);
  return changes.length > 0 ? changes : ['its text changed, not its approvals'];
}

function readWitness(file: string): Witness | undefined {
  try {
    const witness = JSON.parse(readStateFile(file, MAX_TRUST_STORE_BYTES) ?? '') as Partial<Witness>;
    if (typeof witness.sha256 !== 'string' || typeof witness.data !== 'object' || witness.data === null) {
      return undefined;
    }
    const data = witness.data as TrustStoreData;
    return { version: 1, sha256: witness.sha256, data: { ...data, scopes: data.scopes ?? {} } };
  } catch {
    return undefined;
  }
}
