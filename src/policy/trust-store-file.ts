/**
 * The trust store on disk: one small JSON file, replaced atomically (write a temporary file beside it, then
 * rename) so a crash mid-write leaves either the old approvals or the new ones, never half a file; mode 0600
 * because it records what the user approved.
 *
 * Version 2 keeps approvals per config file (a "scope"), because two projects may both name a server `fs` and
 * run it with different folders: `servers` holds the approvals of configs given in code (scope `''`), and
 * `scopes[<config file>].servers` those of each config file. A version 1 file (one `servers` map for everything)
 * is read as the `''` scope, its entries marked `fromVersion1` so that other scopes can still accept them.
 */

import { jsonSyntaxPlace } from '../config/json-syntax-error.js';
import { assertPrivatePath, UnsafePathError } from '../json/private-path.js';
import { readFailureText, readStateFile } from '../json/read-bounded-file.js';
import { errorCodeOf, writeJsonFileAtomically } from '../json/write-json-file.js';
import type { ToolDefinitionSnapshot } from './tool-definition.js';

export const TRUST_STORE_FILE_NAME = 'trust.json';
export const TRUST_STORE_FILE_MODE = 0o600;
const FORMAT_VERSION = 2;
const PREVIOUS_FORMAT_VERSION = 1;
/**
 * The most of a trust store read: a stored definition is at most 16 KB, so this holds some 15,000 tools' definitions,
 * and one of a gigabyte (or a link to a device that never ends) is not read into memory.
 */
export const MAX_TRUST_STORE_BYTES = 256 * 1024 * 1024;

/** How a tool or server came to be approved, for `mcp-host trust` and the audit log. */
export type ApprovalOrigin = 'first-sight' | 'trusted-server' | 'user' | 'command-line';

export interface StoredTool {
  state: 'approved' | 'revoked';
  /** sha256 of the canonical definition when it was approved. */
  fingerprint: string;
  /** The definition approved, kept so a later change can be shown as a diff. */
  definition: ToolDefinitionSnapshot;
  approvedAt: string;
  approvedBy: ApprovalOrigin;
}

export interface StoredServer {
  state: 'approved' | 'revoked';
  /** sha256 of the command line or URL approved. */
  identity: string;
  approvedAt: string;
  approvedBy: ApprovalOrigin;
  /** Keyed by the server's own tool name. */
  tools: Record<string, StoredTool>;
  /** Server tool names the user answered "always allow" for. */
  alwaysAllowed: string[];
  /**
   * Approved before approvals were kept per config file (read from a version 1 file): any scope whose server of
   * this name has the same identity may use it, and copies it into its own scope on its first change.
   */
  fromVersion1?: true;
}

export interface StoredScope {
  /** Keyed by the server's name in the config. */
  servers: Record<string, StoredServer>;
}

export interface TrustStoreData {
  version: typeof FORMAT_VERSION;
  /** The `''` scope: configs given in code, and everything approved before scopes existed. */
  servers: Record<string, StoredServer>;
  /** Keyed by the config file's absolute path. */
  scopes: Record<string, StoredScope>;
}

export function emptyTrustStoreData(): TrustStoreData {
  return { version: FORMAT_VERSION, servers: {}, scopes: {} };
}

/** The trust store file is damaged or cannot be read or written; the message says which file and what to do. */
export class TrustStoreError extends Error {
  override readonly name = 'TrustStoreError';
}

function corrupt(file: string, problem: string): Error {
  return new TrustStoreError(
    `trust store ${file} ${problem}. Fix the file, or delete it to start over (every approval is then forgotten and servers are trusted again on first use).`,
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The file's content; an empty store when it does not exist. Throws an error naming the file when it is damaged. */
export function readTrustStoreFile(file: string): TrustStoreData {
  try {
    assertPrivatePath(file, 'file', 'trust store');
  } catch (error) {
    throw error instanceof UnsafePathError ? new TrustStoreError(error.message) : error;
  }
  let text: string | undefined;
  try {
    text = readStateFile(file, MAX_TRUST_STORE_BYTES);
  } catch (error) {
    throw corrupt(file, `cannot be read (${readFailureText(error, MAX_TRUST_STORE_BYTES)})`);
  }
  if (text === undefined) return emptyTrustStoreData();
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw corrupt(file, `is not valid JSON (${jsonSyntaxPlace(text, error)})`);
  }
  if (!isRecord(data) || (data.version !== FORMAT_VERSION && data.version !== PREVIOUS_FORMAT_VERSION)) {
    throw corrupt(file, `is not a version ${FORMAT_VERSION} (or ${PREVIOUS_FORMAT_VERSION}) trust store`);
  }
  if (!isRecord(data.servers)) throw corrupt(file, 'has no "servers" object');
  checkServers(file, data.servers, '');
  if (data.version === PREVIOUS_FORMAT_VERSION) {
    const servers = data.servers as Record<string, StoredServer>;
    for (const server of Object.values(servers)) server.fromVersion1 = true;
    return { version: FORMAT_VERSION, servers, scopes: {} };
  }
  if (!isRecord(data.scopes)) throw corrupt(file, 'has no "scopes" object');
  for (const [scope, entry] of Object.entries(data.scopes)) {
    // The '' scope lives in the top-level "servers"; a second place for it would be ambiguous.
    if (scope === '' || !isRecord(entry) || !isRecord(entry.servers)) {
      throw corrupt(file, `has a damaged scope "${scope}"`);
    }
    checkServers(file, entry.servers, scope);
  }
  return data as unknown as TrustStoreData;
}

function checkServers(file: string, servers: Record<string, unknown>, scope: string): void {
  const where = scope === '' ? '' : ` in scope "${scope}"`;
  for (const [name, server] of Object.entries(servers)) {
    if (
      !isRecord(server) ||
      typeof server.identity !== 'string' ||
      !isRecord(server.tools) ||
      !Array.isArray(server.alwaysAllowed)
    ) {
      throw corrupt(file, `has a damaged entry for server "${name}"${where}`);
    }
    if (!isKnownState(server.state)) {
      throw corrupt(file, `has a damaged entry for server "${name}"${where}${unknownState(server.state)}`);
    }
    for (const [toolName, tool] of Object.entries(server.tools)) {
      if (!isRecord(tool) || typeof tool.fingerprint !== 'string' || !isRecord(tool.definition)) {
        throw corrupt(file, `has a damaged entry for tool "${toolName}" of server "${name}"${where}`);
      }
      if (!isKnownState(tool.state)) {
        throw corrupt(
          file,
          `has a damaged entry for tool "${toolName}" of server "${name}"${where}${unknownState(tool.state)}`,
        );
      }
    }
  }
}

/**
 * Only these two: any other state (a typo, a state from a later version, a hand edit) approving would make a
 * mistake in the file consent, so the entry is damaged and the store is refused until the file is fixed.
 */
function isKnownState(state: unknown): state is 'approved' | 'revoked' {
  return state === 'approved' || state === 'revoked';
}

/** What is wrong with a state, and how to mend it; the value as JSON, shortened, so it prints as text. */
function unknownState(state: unknown): string {
  const shown = state === undefined ? 'no state' : `the state ${JSON.stringify(state).slice(0, 60)}`;
  return ` (${shown}, where only "approved" or "revoked" can be: set "revoked" to keep it withheld, or remove the entry to be asked again)`;
}

/** Replaces the file atomically with mode 0600. */
export function writeTrustStoreFile(file: string, data: TrustStoreData): void {
  try {
    writeJsonFileAtomically(file, data, TRUST_STORE_FILE_MODE);
  } catch (error) {
    throw new TrustStoreError(
      `could not save the trust store ${file} (${errorCodeOf(error)}); check that its folder is writable.`,
    );
  }
}
