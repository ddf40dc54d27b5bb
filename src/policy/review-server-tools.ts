/**
 * Applies pinning to one server's tool list, at start-up and after every `notifications/tools/list_changed`:
 * checks the server's identity and every tool against the trust store, records first-use approvals, asks the
 * approver about what is withheld (a terminal shows the diff; a headless run says no) and returns which tools
 * the model may see. The policy itself is `partitionTools`; this is the part that talks to the store and people.
 */

import type { ApprovalsPlace } from '../config/trust-commands.js';
import type { ServerConfig } from '../config/types.js';
import type { Approver, DefinitionApprovalRequest, ServerApprovalRequest } from './approver.js';
import { createBreather } from './cooperative-loop.js';
import { diffToolDefinitions } from './definition-diff.js';
import { partitionTools, serverWithheldSummary, type ToolUnderReview, type WithheldTool } from './partition-tools.js';
import { describeServerTarget } from './server-identity.js';
import { fingerprintDefinition, type PinnableTool, snapshotToolDefinition } from './tool-definition.js';
import { findHiddenContentInTool } from './tool-hidden-content.js';
import type { ServerCheck, TrustStore } from './trust-store.js';
import type { ApprovalOrigin } from './trust-store-file.js';

/** Something the user (and the audit log) should know happened to a pin. */
export interface TrustChange {
  serverName: string;
  /** The server's own tool name; absent for a change to the server itself. */
  toolName?: string;
  /** `skill-*`: a skill's pin (`serverName` is then `skill:NAME`). */
  change:
    | 'server-approved'
    | 'tool-approved'
    | 'tool-withheld'
    | 'server-withheld'
    | 'skill-approved'
    | 'skill-withheld';
  /** `first-sight`, `trusted-server`, or the approver's kind (`terminal`, `headless` …). */
  by: string;
  detail: string;
  /** The approved definition's fingerprint, for `tool-approved`. */
  fingerprint?: string;
}

interface ReviewServerToolsOptions {
  store: TrustStore;
  server: ServerConfig;
  /** The server's tools as the catalog names them; a `CatalogEntry` fits. */
  tools: ReadonlyArray<{ name: string; tool: PinnableTool }>;
  approver: Approver;
  /** From `crossReferenceNames`: names of other servers' tools, flagged when a description mentions one. */
  otherServerToolNames?: readonly string[];
  /** Redacted from the command line shown when a changed server is up for approval (`HostConfig.secrets`). */
  secrets?: readonly string[];
  /** One line per tool withheld without approval, and per notable exposed tool: print these on stderr. */
  onNotice?: (message: string) => void;
  /**
   * Record these in the audit log. Awaited, before the change is made: a change that cannot be recorded ends the
   * review with that error, and is not kept, rather than leaving a change the log does not show.
   */
  onTrustChange?: (change: TrustChange) => void | Promise<void>;
  signal?: AbortSignal;
  /** Where the approvals are kept (config file, chosen state folder), named in the approve commands suggested. */
  approvals?: ApprovalsPlace;
  /**
   * Set when a person asked for this review to approve (`mcp-host trust approve`): every approval it records, those
   * the policy would make on first sight or for a trusted server too, is theirs, kept in the store under this name.
   */
  approvedBy?: Extract<ApprovalOrigin, 'user' | 'command-line'>;
}

interface ServerToolsReview {
  /** The server's status before this review. */
  serverStatus: ServerCheck;
  /** Original (server) names of the tools the model may see. */
  exposed: Set<string>;
  /** Tools still withheld after asking, with the message already passed to `onNotice`. */
  withheld: Array<{ toolName: string; originalToolName: string; reason: WithheldTool['reason']; message: string }>;
}

export async function reviewServerTools(options: ReviewServerToolsOptions): Promise<ServerToolsReview> {
  const { store, server, approver, signal, approvedBy } = options;
  const notify = options.onNotice ?? (() => {});
  const record = options.onTrustChange ?? (() => {});
  const serverName = server.name;
  const serverStatus = store.checkServer(server);
  let status = serverStatus;

  if (status === 'changed' || status === 'revoked') {
    const change = status === 'changed' ? 'server-changed' : 'server-revoked';
    const request: ServerApprovalRequest = {
      serverName,
      trust: server.trust,
      change,
      reason:
        change === 'server-changed'
          ? `Server ${serverName} now runs a different command line or URL than the one approved, so its approvals no longer apply.`
          : `Server ${serverName} was revoked.`,
      target: describeServerTarget(server, options.secrets),
      toolNames: options.tools.map((entry) => entry.name),
    };
    if ((await store.asking(() => approver.approveServer(request, signal))) === 'approve') {
      await record({ serverName, change: 'server-approved', by: approver.kind, detail: request.reason });
      store.approveServer(server, approvedBy ?? 'user');
      status = 'known';
    } else {
      await record({ serverName, change: 'server-withheld', by: approver.kind, detail: request.reason });
    }
  }

  // A server may list thousands of tools: the loops below give the event loop a turn now and then, so a signal
  // (Ctrl-C, SIGTERM) is handled at once and stops the review.
  const breathe = createBreather(signal);
  const entries: ToolUnderReview[] = [];
  for (const { name, tool } of options.tools) {
    await breathe();
    entries.push({
      name,
      tool,
      status: store.checkTool(serverName, tool),
      hiddenContent: findHiddenContentInTool(tool, options.otherServerToolNames ?? []),
    });
  }
  const partition = partitionTools({
    serverName,
    trust: server.trust,
    serverStatus: status,
    tools: entries,
    ...(options.approvals === undefined ? {} : { approvals: options.approvals }),
  });

  const exposed = new Set<string>();
  for (const entry of partition.exposed) exposed.add(entry.tool.name);
  // Everything recorded without asking anyone is saved in one write.
  await store.batch(async () => {
    if (status === 'new') {
      await record({
        serverName,
        change: 'server-approved',
        by: approvedBy ?? 'first-sight',
        detail: `First start of ${serverName}.`,
      });
      store.approveServer(server, approvedBy ?? 'first-sight');
    }
    for (const { entry, origin } of partition.toRecord) {
      await breathe();
      const fingerprint = fingerprintDefinition(entry.tool);
      await record({
        serverName,
        toolName: entry.tool.name,
        change: 'tool-approved',
        by: approvedBy ?? origin,
        detail:
          origin === 'first-sight'
            ? `First sight of ${entry.name}.`
            : `New tool ${entry.name} on trusted server ${serverName}.`,
        fingerprint,
      });
      store.approveTool(serverName, entry.tool, approvedBy ?? origin, fingerprint);
    }
  });
  for (const notice of partition.notices) notify(notice);

  const withheld: ServerToolsReview['withheld'] = [];
  const serverWithheld: string[] = [];
  for (const item of partition.withheld) {
    const { entry } = item;
    // A server left unapproved keeps all its tools withheld: asking about each tool would not change that.
    const answer =
      item.reason === 'server-changed' || item.reason === 'server-revoked'
        ? 'reject'
        : await store.asking(() => approver.approveToolDefinition(definitionRequest(options, item), signal));
    if (answer === 'approve') {
      await record({
        serverName,
        toolName: entry.tool.name,
        change: 'tool-approved',
        by: approver.kind,
        detail: item.message,
        fingerprint: fingerprintDefinition(entry.tool),
      });
      store.approveTool(serverName, entry.tool, approvedBy ?? 'user');
      exposed.add(entry.tool.name);
      continue;
    }
    withheld.push({
      toolName: entry.name,
      originalToolName: entry.tool.name,
      reason: item.reason,
      message: item.message,
    });
    // A whole server withheld is said once, below; each tool's record still carries its own message.
    if (item.reason === 'server-changed' || item.reason === 'server-revoked') serverWithheld.push(entry.name);
    else notify(item.message);
    await record({
      serverName,
      toolName: entry.tool.name,
      change: 'tool-withheld',
      by: approver.kind,
      detail: item.message,
    });
  }
  if (serverWithheld.length > 0) {
    notify(
      serverWithheldSummary(
        serverName,
        status === 'revoked' ? 'server-revoked' : 'server-changed',
        serverWithheld,
        options.approvals,
      ),
    );
  }
  return { serverStatus, exposed, withheld };
}

function definitionRequest(options: ReviewServerToolsOptions, item: WithheldTool): DefinitionApprovalRequest {
  const { entry } = item;
  const previous = options.store.approvedDefinition(options.server.name, entry.tool.name);
  const current = snapshotToolDefinition(entry.tool);
  return {
    serverName: options.server.name,
    toolName: entry.name,
    originalToolName: entry.tool.name,
    trust: options.server.trust,
    change: item.reason,
    reason: item.message,
    ...(previous === undefined ? {} : { previous }),
    current,
    diff: diffToolDefinitions(previous, current),
    hiddenContent: entry.hiddenContent,
  };
}

/**
 * The names to pass as `otherServerToolNames` when reviewing `serverName`: every other server's namespaced tool
 * names, plus their original names when those look like identifiers (`delete_repo`, `sendEmail`) rather than
 * ordinary words (`search`), which would flag innocent descriptions.
 */
export function crossReferenceNames(
  entries: ReadonlyArray<{ name: string; server: string; tool: { name: string } }>,
  serverName: string,
): string[] {
  const names = new Set<string>();
  for (const entry of entries) {
    if (entry.server === serverName) continue;
    names.add(entry.name);
    if (/[_\-\d]|[a-z][A-Z]/.test(entry.tool.name)) names.add(entry.tool.name);
  }
  return [...names];
}
