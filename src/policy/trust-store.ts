/**
 * What the user has approved, remembered between runs: for each server its identity (name + hash of its command
 * line or URL) and the fingerprint and definition of every approved tool, plus the tools the user chose to always
 * allow. This is the memory that defeats rug pulls: a tool that changes after approval no longer matches its pin.
 *
 * Every change is saved at once. The file is read again whenever another process (e.g. `mcp-host trust revoke`
 * in a second terminal) has changed it, and again right before each change, so two hosts sharing a state folder
 * lose nothing but a simultaneous write.
 */

import { statSync } from 'node:fs';
import path from 'node:path';
import type { ServerConfig } from '../config/types.js';
import { serverIdentity } from './server-identity.js';
import {
  fingerprintDefinition,
  type PinnableTool,
  snapshotToolDefinition,
  type ToolDefinitionSnapshot,
} from './tool-definition.js';
import {
  type ApprovalOrigin,
  emptyTrustStoreData,
  readTrustStoreFile,
  TRUST_STORE_FILE_NAME,
  type TrustStoreData,
  writeTrustStoreFile,
} from './trust-store-file.js';

/** `known`: identity matches its approval; `changed`: the command line or URL differs; `revoked`: the user revoked it. */
export type ServerCheck = 'known' | 'new' | 'changed' | 'revoked';
/** `approved`: the fingerprint matches; `changed`: the definition differs from the approved one. */
export type ToolCheck = 'approved' | 'new' | 'changed' | 'revoked';

export interface TrustedToolEntry {
  name: string;
  state: 'approved' | 'revoked';
  fingerprint: string;
  definition: ToolDefinitionSnapshot;
  approvedAt: string;
  approvedBy: ApprovalOrigin;
  alwaysAllowed: boolean;
}

export interface TrustedServerEntry {
  name: string;
  state: 'approved' | 'revoked';
  identity: string;
  approvedAt: string;
  approvedBy: ApprovalOrigin;
  tools: TrustedToolEntry[];
}

/** The part of the store `authorizeToolCall` needs: "always allow" answers, keyed by server and original name. */
export interface RememberedApprovals {
  isAlwaysAllowed(serverName: string, toolName: string): boolean;
  setAlwaysAllowed(serverName: string, toolName: string, allowed?: boolean): void;
}

export class TrustStore implements RememberedApprovals {
  private data: TrustStoreData;
  private loadedVersion = '';

  private constructor(readonly file: string | undefined) {
    this.data = emptyTrustStoreData();
    this.reloadIfChanged();
  }

  /** Opens (or starts) the store in `file`. Throws an error naming the file when it is damaged. */
  static open(file: string): TrustStore {
    return new TrustStore(file);
  }

  /** `trust.json` in the state folder (create the folder first with `ensureStateDir`). */
  static inStateDir(stateDir: string): TrustStore {
    return new TrustStore(path.join(stateDir, TRUST_STORE_FILE_NAME));
  }

  /** A store that forgets everything when the process ends (tests; library use without a state folder). */
  static inMemory(): TrustStore {
    return new TrustStore(undefined);
  }

  checkServer(server: ServerConfig): ServerCheck {
    this.reloadIfChanged();
    const stored = this.data.servers[server.name];
    if (stored === undefined) return 'new';
    if (stored.state === 'revoked') return 'revoked';
    return stored.identity === serverIdentity(server).hash ? 'known' : 'changed';
  }

  checkTool(serverName: string, tool: PinnableTool): ToolCheck {
    this.reloadIfChanged();
    const stored = this.data.servers[serverName]?.tools[tool.name];
    if (stored === undefined) return 'new';
    if (stored.state === 'revoked') return 'revoked';
    return stored.fingerprint === fingerprintDefinition(tool) ? 'approved' : 'changed';
  }

  /** The definition last approved (also after a revoke), to diff against. */
  approvedDefinition(serverName: string, toolName: string): ToolDefinitionSnapshot | undefined {
    this.reloadIfChanged();
    return this.data.servers[serverName]?.tools[toolName]?.definition;
  }

  /**
   * Records the server's current identity as approved. When the identity differs from the one stored, the
   * "always allow" answers given to the old program are dropped; tool pins stay, so unchanged tools need no new
   * approval.
   */
  approveServer(server: ServerConfig, by: ApprovalOrigin = 'user'): void {
    const identity = serverIdentity(server).hash;
    this.mutate((data) => {
      const stored = data.servers[server.name];
      const sameProgram = stored !== undefined && stored.identity === identity && stored.state === 'approved';
      data.servers[server.name] = {
        state: 'approved',
        identity,
        approvedAt: new Date().toISOString(),
        approvedBy: by,
        tools: stored?.tools ?? {},
        alwaysAllowed: sameProgram ? stored.alwaysAllowed : [],
      };
    });
  }

  /** Pins the tool's current definition. The server must be in the store already (`approveServer`). */
  approveTool(serverName: string, tool: PinnableTool, by: ApprovalOrigin = 'user'): void {
    const fingerprint = fingerprintDefinition(tool);
    this.mutate((data) => {
      const server = data.servers[serverName];
      if (server === undefined) {
        throw new Error(
          `Cannot approve tool ${tool.name}: server ${serverName} is not in the trust store; approve the server first.`,
        );
      }
      const previous = server.tools[tool.name];
      if (previous !== undefined && previous.fingerprint !== fingerprint) {
        // "Always allow" was said about the old definition.
        server.alwaysAllowed = server.alwaysAllowed.filter((name) => name !== tool.name);
      }
      server.tools[tool.name] = {
        state: 'approved',
        fingerprint,
        definition: snapshotToolDefinition(tool),
        approvedAt: new Date().toISOString(),
        approvedBy: by,
      };
    });
  }

  /**
   * Revokes one tool, or the server and all of its tools. A revoked entry stays in the store (so the next start
   * does not trust it again on first use) until approved again. Returns false when there was nothing to revoke.
   */
  revoke(serverName: string, toolName?: string): boolean {
    let found = false;
    this.mutate((data) => {
      const server = data.servers[serverName];
      if (server === undefined) return;
      if (toolName === undefined) {
        found = true;
        server.state = 'revoked';
        for (const tool of Object.values(server.tools)) tool.state = 'revoked';
        server.alwaysAllowed = [];
        return;
      }
      const tool = server.tools[toolName];
      if (tool === undefined) return;
      found = true;
      tool.state = 'revoked';
      server.alwaysAllowed = server.alwaysAllowed.filter((name) => name !== toolName);
    });
    return found;
  }

  isAlwaysAllowed(serverName: string, toolName: string): boolean {
    this.reloadIfChanged();
    const server = this.data.servers[serverName];
    return server?.state === 'approved' && server.alwaysAllowed.includes(toolName);
  }

  /** Remembers (or forgets) an "always allow" answer; ignored for a server not in the store. */
  setAlwaysAllowed(serverName: string, toolName: string, allowed = true): void {
    this.mutate((data) => {
      const server = data.servers[serverName];
      if (server === undefined) return;
      const others = server.alwaysAllowed.filter((name) => name !== toolName);
      server.alwaysAllowed = allowed ? [...others, toolName].sort() : others;
    });
  }

  list(): TrustedServerEntry[] {
    this.reloadIfChanged();
    return Object.entries(this.data.servers)
      .sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0))
      .map(([name, server]) => ({
        name,
        state: server.state,
        identity: server.identity,
        approvedAt: server.approvedAt,
        approvedBy: server.approvedBy,
        tools: Object.entries(server.tools)
          .sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0))
          .map(([toolName, tool]) => ({
            name: toolName,
            state: tool.state,
            fingerprint: tool.fingerprint,
            definition: tool.definition,
            approvedAt: tool.approvedAt,
            approvedBy: tool.approvedBy,
            alwaysAllowed: server.alwaysAllowed.includes(toolName),
          })),
      }));
  }

  private mutate(change: (data: TrustStoreData) => void): void {
    // Start from what is on disk now, so a change made by another process in the meantime is kept.
    if (this.file !== undefined) this.data = readTrustStoreFile(this.file);
    change(this.data);
    if (this.file === undefined) return;
    writeTrustStoreFile(this.file, this.data);
    this.loadedVersion = this.fileVersion();
  }

  private reloadIfChanged(): void {
    if (this.file === undefined) return;
    const version = this.fileVersion();
    if (version === this.loadedVersion) return;
    this.data = readTrustStoreFile(this.file);
    this.loadedVersion = version;
  }

  /** Modification time, size and inode: a rename by another writer changes at least the inode. */
  private fileVersion(): string {
    try {
      const stats = statSync(this.file!);
      return `${stats.mtimeMs}:${stats.size}:${stats.ino}`;
    } catch {
      return 'absent';
    }
  }
}
