/**
 * Which config files found by discovery the user has approved, as editors do for workspace trust: a `.mcp.json` or
 * `mcp-host.json` in the working folder starts commands, so it is used only after the user approved that file's
 * content once (`mcp-host trust config`). Kept in the state folder as path → sha256 of the text; a changed file
 * needs approving again. A config named with `--config` is the user's own choice and needs no approval.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { assertPrivatePath } from '../json/private-path.js';
import { readStateFile } from '../json/read-bounded-file.js';
import { writeJsonFileAtomically } from '../json/write-json-file.js';
import { ensureStateDir } from './state-dir.js';

const CONFIG_APPROVALS_FILE_NAME = 'approved-configs.json';
/** A hash and a time per config: far more configs than anyone approves. */
const MAX_APPROVALS_BYTES = 16 * 1024 * 1024;

interface ApprovedConfig {
  sha256: string;
  approvedAt: string;
}

interface ConfigApprovals {
  version: 1;
  configs: Record<string, ApprovedConfig>;
}

/** `approved`; `new`: never approved; `changed`: approved with other content. */
type ConfigApprovalState = 'approved' | 'new' | 'changed';

function configTextHash(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function approvalsFile(stateDir: string): string {
  return path.join(stateDir, CONFIG_APPROVALS_FILE_NAME);
}

function readApprovals(stateDir: string): ConfigApprovals {
  const file = approvalsFile(stateDir);
  assertPrivatePath(file, 'file', 'list of approved configs');
  try {
    const data = JSON.parse(readStateFile(file, MAX_APPROVALS_BYTES) ?? '') as Partial<ConfigApprovals>;
    if (typeof data.configs === 'object' && data.configs !== null) return { version: 1, configs: data.configs };
  } catch {
    // Missing or damaged: nothing is approved, so nothing starts without asking.
  }
  return { version: 1, configs: {} };
}

export function configApprovalState(stateDir: string, configFile: string, text: string): ConfigApprovalState {
  const approved = readApprovals(stateDir).configs[configFile];
  if (approved === undefined) return 'new';
  return approved.sha256 === configTextHash(text) ? 'approved' : 'changed';
}

/** Approves `configFile` with content `text`; returns the hash remembered. */
export function approveConfig(stateDir: string, configFile: string, text: string): string {
  ensureStateDir(stateDir);
  const approvals = readApprovals(stateDir);
  const sha256 = configTextHash(text);
  approvals.configs[configFile] = { sha256, approvedAt: new Date().toISOString() };
  writeJsonFileAtomically(approvalsFile(stateDir), approvals, 0o600);
  return sha256;
}
