/**
 * What the user has approved, remembered between runs: for each server its identity (name + hash of its command
 * line or URL) and the fingerprint and definition of every approved tool, plus the tools the user chose to always
 * allow. This is the memory that defeats rug pulls: a tool that changes after approval no longer matches its pin.
 *
 * Approvals belong to one config (a "scope": the config file's path, or `''` for a config given in code), so two
 * projects whose configs both name a server `fs` with different folders keep one approval each instead of taking
 * turns at "server changed". Approvals made before scopes existed (a version 1 file) are offered to every scope
 * whose server of that name runs the same command line or URL, and copied into the scope when it first changes
 * anything.
 *
 * Every change is saved at once, except inside `batch`, which saves a whole review of a server in one write. The file is read again whenever another process (e.g. `mcp-host trust revoke`
 * in a second terminal) has changed it, and again right before each change, so two hosts sharing a state folder
 * lose nothing but a simultaneous write.
 */

import { statSync } from 'node:fs';
import path from 'node:path';
import type { ServerConfig } from '../config/types.js';
import { ownValue, setOwnProperty } from '../json/own-property.js';
import { serverIdentity } from './server-identity.js';
import {
  fingerprintDefinition,
  type PinnableTool,
  storedToolDefinition,
  type ToolDefinitionSnapshot,
} from './tool-definition.js';
import {
  type ApprovalOrigin,
  emptyTrustStoreData,
  readTrustStoreFile,
  type StoredServer,
  TRUST_STORE_FILE_NAME,
  type TrustStoreData,
  writeTrustStoreFile,
} from './trust-store-file.js';
import { recordTrustStoreWrite, trustStoreChangesSinceLastWrite } from './trust-store-witness.js';

/** `known`: identity matches its approval; `changed`: the command line or URL differs; `revoked`: the user revoked it. */
export type ServerCheck = 'known' | 'new' | 'changed' | 'revoked';
/** `approved`: the fingerprint matches; `changed`: the definition differs from the approved one. */
export type ToolCheck = 'approved' | 'new' | 'changed' | 'revoked';

interface TrustedToolEntry {
  name: string;
  state: 'approved' | 'revoked';
  fingerprint: string;
  definition: ToolDefinitionSnapshot;
  approvedAt: string;
  approvedBy: ApprovalOrigin;
  alwaysAllowed: boolean;
}

interface TrustedServerEntry {
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

interface TrustStoreOptions {
  /**
   * The config the approvals belong to: the config file's absolute path (`HostConfig.file`), or `''` (the
   * default) for a config given in code. The host and `mcp-host trust` must agree on it for the same config.
   */
  scope?: string;
}

export class TrustStore implements RememberedApprovals {
  readonly scope: string;
  private data: TrustStoreData;
  private loadedVersion = '';
  /** Inside `batch`: changes wait in memory and are saved once when the outermost batch ends. */
  private batchDepth = 0;
  private batchChanged = false;
  /** The identity (command line or URL hash) each server name has under this scope's config, once seen. */
  private readonly identities = new Map<string, string>();
  /** The same, as hashed before identities covered cwd and env (see `ServerIdentity.previousHash`). */
  private readonly previousIdentities = new Map<string, string>();

  private constructor(
    readonly file: string | undefined,
    options: TrustStoreOptions,
  ) {
    this.scope = options.scope ?? '';
    this.data = emptyTrustStoreData();
    this.reloadIfChanged();
  }

  /** Opens (or starts) the store in `file`. Throws an error naming the file when it is damaged. */
  static open(file: string, options: TrustStoreOptions = {}): TrustStore {
    return new TrustStore(file, options);
  }

  /** `trust.json` in the state folder (create the folder first with `ensureStateDir`). */
  static inStateDir(stateDir: string, options: TrustStoreOptions = {}): TrustStore {
    return new TrustStore(path.join(stateDir, TRUST_STORE_FILE_NAME), options);
  }

  /**
   * How the file differs from what a host last wrote to it (a hand edit, or a program approving its own calls),
   * one line per change; empty when it does not. Each change is reported once.
   */
  changesSinceLastWrite(): string[] {
    return this.file === undefined ? [] : trustStoreChangesSinceLastWrite(this.file);
  }

  /** A store that forgets everything when the process ends (tests; library use without a state folder). */
  static inMemory(options: TrustStoreOptions = {}): TrustStore {
    return new TrustStore(undefined, options);
  }

  /**
   * Tells the store what each server of this scope's config runs, so approvals kept from before scopes are
   * offered only to a server with the same command line or URL (`checkServer` does this for one server). Call it
   * before `list` when the config is at hand.
   */
  useConfiguredServers(servers: readonly ServerConfig[]): void {
    for (const server of servers) this.remember(server);
  }

  checkServer(server: ServerConfig): ServerCheck {
    this.reloadIfChanged();
    const { hash: identity, previousHash } = this.remember(server);
    const stored = this.entryOf(this.data, server.name);
    if (stored === undefined) return 'new';
    if (stored.state === 'revoked') return 'revoked';
    if (stored.identity === identity) return 'known';
    if (stored.identity !== previousHash) return 'changed';
    // Approved when identities covered only the command line: same command line, so the approval moves to the
    // full identity once; any later change of cwd or env is a change.
    this.mutate((data) => {
      const entry = this.entryToChange(data, server.name);
      if (entry?.identity === previousHash) entry.identity = identity;
    });
    return 'known';
  }

  private remember(server: ServerConfig) {
    const identity = serverIdentity(server);
    this.identities.set(server.name, identity.hash);
    this.previousIdentities.set(server.name, identity.previousHash);
    return identity;
  }

  checkTool(serverName: string, tool: PinnableTool): ToolCheck {
    this.reloadIfChanged();
    const stored = ownValue(this.entryOf(this.data, serverName)?.tools, tool.name);
    if (stored === undefined) return 'new';
    if (stored.state === 'revoked') return 'revoked';
    return stored.fingerprint === fingerprintDefinition(tool) ? 'approved' : 'changed';
  }

  /** The definition last approved (also after a revoke), to diff against. */
  approvedDefinition(serverName: string, toolName: string): ToolDefinitionSnapshot | undefined {
    this.reloadIfChanged();
    return ownValue(this.entryOf(this.data, serverName)?.tools, toolName)?.definition;
  }

  /**
   * Records the server's current identity as approved. When the identity differs from the one stored, the
   * "always allow" answers given to the old program are dropped; tool pins stay, so unchanged tools need no new
   * approval.
   */
  approveServer(server: ServerConfig, by: ApprovalOrigin = 'user'): void {
    const identity = serverIdentity(server).hash;
    this.identities.set(server.name, identity);
    this.mutate((data) => {
      const stored = this.entryToChange(data, server.name);
      const sameProgram = stored !== undefined && stored.identity === identity && stored.state === 'approved';
      setOwnProperty(this.ownServers(data), server.name, {
        state: 'approved',
        identity,
        approvedAt: new Date().toISOString(),
        approvedBy: by,
        tools: stored?.tools ?? {},
        alwaysAllowed: sameProgram ? stored.alwaysAllowed : [],
        // Still the program approved before scopes existed, so other scopes may go on accepting it.
        ...(stored?.fromVersion1 === true && stored.identity === identity ? { fromVersion1: true as const } : {}),
      });
    });
  }

  /** Pins the tool's current definition. The server must be in the store already (`approveServer`). */
  approveTool(
    serverName: string,
    tool: PinnableTool,
    by: ApprovalOrigin = 'user',
    fingerprint = fingerprintDefinition(tool),
  ): void {
    this.mutate((data) => {
      const server = this.entryToChange(data, serverName);
      if (server === undefined) {
        throw new Error(
          `cannot approve tool ${tool.name}: server ${serverName} is not in the trust store; approve the server first.`,
        );
      }
      const previous = ownValue(server.tools, tool.name);
      if (previous !== undefined && previous.fingerprint !== fingerprint) {
        // "Always allow" was said about the old definition.
        server.alwaysAllowed = server.alwaysAllowed.filter((name) => name !== tool.name);
      }
      setOwnProperty(server.tools, tool.name, {
        state: 'approved',
        fingerprint,
        definition: storedToolDefinition(tool),
        approvedAt: new Date().toISOString(),
        approvedBy: by,
      });
    });
  }

  /**
   * Revokes one tool, or the server and all of its tools. A revoked entry stays in the store (so the next start
   * does not trust it again on first use) until approved again. Returns false when there was nothing to revoke.
   */
  revoke(serverName: string, toolName?: string): boolean {
    let found = false;
    this.mutate((data) => {
      const server = this.entryToChange(data, serverName);
      if (server === undefined) return;
      if (toolName === undefined) {
        found = true;
        server.state = 'revoked';
        for (const tool of Object.values(server.tools)) tool.state = 'revoked';
        server.alwaysAllowed = [];
        return;
      }
      const tool = ownValue(server.tools, toolName);
      if (tool === undefined) return;
      found = true;
      tool.state = 'revoked';
      server.alwaysAllowed = server.alwaysAllowed.filter((name) => name !== toolName);
    });
    return found;
  }

  isAlwaysAllowed(serverName: string, toolName: string): boolean {
    this.reloadIfChanged();
    const server = this.entryOf(this.data, serverName);
    return server?.state === 'approved' && server.alwaysAllowed.includes(toolName);
  }

  /** Remembers (or forgets) an "always allow" answer; ignored for a server not in the store. */
  setAlwaysAllowed(serverName: string, toolName: string, allowed = true): void {
    this.mutate((data) => {
      const server = this.entryToChange(data, serverName);
      if (server === undefined) return;
      const others = server.alwaysAllowed.filter((name) => name !== toolName);
      server.alwaysAllowed = allowed ? [...others, toolName].sort() : others;
    });
  }

  /** The approvals in force for this scope (its own, and those it accepts from before scopes existed). */
  list(): TrustedServerEntry[] {
    this.reloadIfChanged();
    const inForce = new Map<string, StoredServer>();
    for (const name of Object.keys(this.data.servers)) {
      const entry = this.entryOf(this.data, name);
      if (entry !== undefined) inForce.set(name, entry);
    }
    for (const [name, entry] of Object.entries(this.ownServers(this.data, false) ?? {})) inForce.set(name, entry);
    return [...inForce]
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

  /** This scope's own servers; created in the data unless `create` is false. */
  private ownServers(data: TrustStoreData): Record<string, StoredServer>;
  private ownServers(data: TrustStoreData, create: false): Record<string, StoredServer> | undefined;
  private ownServers(data: TrustStoreData, create = true): Record<string, StoredServer> | undefined {
    if (this.scope === '') return data.servers;
    const existing = ownValue(data.scopes, this.scope);
    if (existing !== undefined || !create) return existing?.servers;
    const scope = { servers: {} };
    setOwnProperty(data.scopes, this.scope, scope);
    return scope.servers;
  }

  /** The entry in force for `name` here: this scope's own, else one from before scopes that it accepts. */
  private entryOf(data: TrustStoreData, name: string): StoredServer | undefined {
    return ownValue(this.ownServers(data, false), name) ?? this.inherited(data, name);
  }

  /**
   * An approval from before scopes existed that this scope accepts: its identity matches this scope's server of
   * that name. Before that server has been seen (a direct call without `checkServer`), it stands, as it did then.
   */
  private inherited(data: TrustStoreData, name: string): StoredServer | undefined {
    if (this.scope === '' || ownValue(this.ownServers(data, false), name) !== undefined) return undefined;
    const entry = ownValue(data.servers, name);
    if (entry?.fromVersion1 !== true) return undefined;
    const identity = this.identities.get(name);
    return identity === undefined || identity === entry.identity || this.previousIdentities.get(name) === entry.identity
      ? entry
      : undefined;
  }

  /** This scope's own entry for a change, copying an accepted one from before scopes into the scope first. */
  private entryToChange(data: TrustStoreData, name: string): StoredServer | undefined {
    const own = ownValue(this.ownServers(data, false), name);
    if (own !== undefined) return own;
    const inherited = this.inherited(data, name);
    if (inherited === undefined) return undefined;
    const { fromVersion1: _, ...copy } = structuredClone(inherited);
    setOwnProperty(this.ownServers(data), name, copy);
    return copy;
  }

  /**
   * Runs `work` with every change it makes saved in ONE write at the end (first sight of a server with a thousand
   * tools is one write, not a thousand rewrites of the whole file). The file is read once at the start, so changes
   * another process saves meanwhile are overwritten; keep batches short and free of questions to people.
   */
  batch<Result>(work: () => Result): Result {
    if (this.batchDepth === 0) {
      if (this.file !== undefined) this.data = readTrustStoreFile(this.file);
      this.batchChanged = false;
    }
    this.batchDepth += 1;
    const end = () => {
      this.batchDepth -= 1;
      if (this.batchDepth === 0 && this.batchChanged) this.save();
    };
    let result: Result;
    try {
      result = work();
    } catch (error) {
      end();
      throw error;
    }
    // Asynchronous work (a review that yields to the event loop now and then) is saved when it settles.
    if (result instanceof Promise) return result.finally(end) as Result;
    end();
    return result;
  }

  /**
   * Runs `ask` (a question to a person) outside the batch in progress, if any: what the batch changed so far is saved
   * first and the file is read again after the answer, so an answer that takes minutes neither holds back the
   * batch's changes nor overwrites what another process saved meanwhile.
   */
  async asking<Result>(ask: () => Promise<Result>): Promise<Result> {
    if (this.batchDepth === 0) return ask();
    if (this.batchChanged) {
      this.save();
      this.batchChanged = false;
    }
    try {
      return await ask();
    } finally {
      if (this.file !== undefined) this.data = readTrustStoreFile(this.file);
    }
  }

  private mutate(change: (data: TrustStoreData) => void): void {
    // Start from what is on disk now, so a change made by another process in the meantime is kept.
    if (this.file !== undefined && this.batchDepth === 0) this.data = readTrustStoreFile(this.file);
    // The first change in a scope takes over every approval from before scopes that this scope's servers match,
    // so they no longer depend on an entry another scope may replace.
    for (const [name, identity] of this.identities) {
      if (this.inherited(this.data, name)?.identity === identity) this.entryToChange(this.data, name);
    }
    change(this.data);
    if (this.batchDepth > 0) {
      this.batchChanged = true;
      return;
    }
    this.save();
  }

  private save(): void {
    if (this.file === undefined) return;
    writeTrustStoreFile(this.file, this.data);
    recordTrustStoreWrite(this.file, this.data);
    this.loadedVersion = this.fileVersion();
  }

  private reloadIfChanged(): void {
    // Inside a batch the data in memory holds changes not yet saved.
    if (this.file === undefined || this.batchDepth > 0) return;
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
