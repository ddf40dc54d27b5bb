/**
 * The state of trust at a glance, for `mcp-host trust`: each server in the config or the store, whether its
 * identity matches its approval, and for each tool whether the model would see it now, and why not. Built with the
 * same `partitionTools` policy a run applies, so the listing cannot disagree with what a run would do.
 */

import type { ApprovalsPlace } from '../config/trust-commands.js';
import type { ServerConfig, ServerTrust } from '../config/types.js';
import { showOnOneLine } from '../text/invisible-characters.js';
import { describeHiddenContent, showRaw } from './hidden-content.js';
import { partitionTools, type ToolUnderReview } from './partition-tools.js';
import { crossReferenceNames } from './review-server-tools.js';
import type { PinnableTool } from './tool-definition.js';
import { findHiddenContentInTool } from './tool-hidden-content.js';
import type { ServerCheck, ToolCheck, TrustStore } from './trust-store.js';

interface TrustReportServerInput {
  config: ServerConfig;
  /** The tools it lists now, with namespaced names; absent when not listed. */
  tools?: ReadonlyArray<{ name: string; tool: PinnableTool }>;
  error?: string;
}

type ToolAvailability =
  /** The model sees it. */
  | 'available'
  /** Not approved yet, but the next start approves it (first sight, or a new tool of a trusted server). */
  | 'approved-on-next-start'
  | 'withheld'
  /** In the store but the server does not list it now (or could not be listed). */
  | 'not-listed';

interface TrustReportTool {
  /** The server's own name. */
  name: string;
  /** As the model sees it, when listed now. */
  namespacedName?: string;
  /** Against the store; absent when not listed now. */
  status?: ToolCheck;
  availability: ToolAvailability;
  /** Why it is withheld, with the command that approves it. */
  withheldBecause?: string;
  storedState?: 'approved' | 'revoked';
  /** Who approved it; absent once revoked, so a revoked pin never reads as approved. */
  approvedBy?: string;
  approvedAt?: string;
  /** A revoked pin's former approval: the pin is kept to diff against when it is approved again. */
  wasApprovedBy?: string;
  wasApprovedAt?: string;
  alwaysAllowed: boolean;
  hiddenContent: string[];
}

export interface TrustReportServer {
  name: string;
  /** From the config; absent for a server only the store remembers. */
  trust?: ServerTrust;
  disabled?: boolean;
  status: ServerCheck | 'not-in-config';
  approvedBy?: string;
  approvedAt?: string;
  wasApprovedBy?: string;
  wasApprovedAt?: string;
  /** Why its tools could not be listed. */
  error?: string;
  tools: TrustReportTool[];
}

interface TrustReportOptions {
  /** Where the approvals are kept (config file, chosen state folder), named in the approve commands of withheld tools. */
  approvals?: ApprovalsPlace;
}

interface StoredApproval {
  state: 'approved' | 'revoked';
  approvedBy: string;
  approvedAt: string;
}

/** An approval as the report shows it: a revoked one under `was…`, so nothing revoked reads as approved. */
function approvalFields(entry: StoredApproval) {
  return entry.state === 'revoked'
    ? { wasApprovedBy: entry.approvedBy, wasApprovedAt: entry.approvedAt }
    : { approvedBy: entry.approvedBy, approvedAt: entry.approvedAt };
}

function pinFields(pin: StoredApproval) {
  return { storedState: pin.state, ...approvalFields(pin) };
}

export function buildTrustReport(
  store: TrustStore,
  servers: readonly TrustReportServerInput[],
  options: TrustReportOptions = {},
): TrustReportServer[] {
  const stored = new Map(store.list().map((server) => [server.name, server]));
  const allEntries = servers.flatMap((server) =>
    (server.tools ?? []).map((entry) => ({ ...entry, server: server.config.name })),
  );
  const report: TrustReportServer[] = [];

  for (const server of servers) {
    const name = server.config.name;
    const remembered = stored.get(name);
    stored.delete(name);
    const status = store.checkServer(server.config);
    const others = crossReferenceNames(allEntries, name);
    const entries: ToolUnderReview[] = (server.tools ?? []).map(({ name: namespaced, tool }) => ({
      name: namespaced,
      tool,
      status: store.checkTool(name, tool),
      hiddenContent: findHiddenContentInTool(tool, others),
    }));
    const partition = partitionTools({
      serverName: name,
      trust: server.config.trust,
      serverStatus: status,
      tools: entries,
      ...(options.approvals === undefined ? {} : { approvals: options.approvals }),
    });
    const recordedNext = new Set(partition.toRecord.map(({ entry }) => entry.tool.name));
    const withheld = new Map(partition.withheld.map((item) => [item.entry.tool.name, item.message]));
    const storedTools = new Map((remembered?.tools ?? []).map((tool) => [tool.name, tool]));

    const tools: TrustReportTool[] = entries.map((entry) => {
      const pin = storedTools.get(entry.tool.name);
      storedTools.delete(entry.tool.name);
      const reason = withheld.get(entry.tool.name);
      return {
        name: entry.tool.name,
        namespacedName: entry.name,
        status: entry.status,
        availability:
          reason !== undefined
            ? 'withheld'
            : recordedNext.has(entry.tool.name)
              ? 'approved-on-next-start'
              : 'available',
        ...(reason === undefined ? {} : { withheldBecause: reason }),
        ...(pin === undefined ? {} : pinFields(pin)),
        alwaysAllowed: pin?.alwaysAllowed ?? false,
        hiddenContent: describeHiddenContent(entry.hiddenContent),
      };
    });
    for (const pin of storedTools.values()) {
      tools.push({
        name: pin.name,
        availability: 'not-listed',
        ...pinFields(pin),
        alwaysAllowed: pin.alwaysAllowed,
        hiddenContent: [],
      });
    }
    report.push({
      name,
      trust: server.config.trust,
      ...(server.config.disabled ? { disabled: true } : {}),
      status,
      ...(remembered === undefined ? {} : approvalFields(remembered)),
      ...(server.error === undefined ? {} : { error: server.error }),
      tools,
    });
  }

  for (const remembered of stored.values()) {
    report.push({
      name: remembered.name,
      status: 'not-in-config',
      ...approvalFields(remembered),
      tools: remembered.tools.map((pin) => ({
        name: pin.name,
        availability: 'not-listed',
        ...pinFields(pin),
        alwaysAllowed: pin.alwaysAllowed,
        hiddenContent: [],
      })),
    });
  }
  return report;
}

const SERVER_STATUS_WORDS: Record<TrustReportServer['status'], string> = {
  known: 'approved',
  new: 'new (trusted on first use at its next start)',
  changed: 'CHANGED command line or URL: withheld until approved',
  revoked: 'REVOKED: withheld until approved',
  'not-in-config': 'in the trust store only (not in the config)',
};

function toolLine(tool: TrustReportTool, serverRevoked: boolean, offline: boolean): string {
  // On one line: the server chose its own name for the tool, and a line break in it would start a line of its own.
  const name = showOnOneLine(tool.namespacedName ?? tool.name);
  // A revoke of the server revokes every pin with it: say which, so the fix (approve the server) is clear.
  const revokedBy = serverRevoked && tool.storedState === 'revoked' ? 'server revoked' : undefined;
  const stored = revokedBy ?? tool.storedState ?? 'unknown';
  // Offline, no server was asked: "not listed now" would say a server left the tool out.
  const state =
    tool.availability === 'not-listed'
      ? offline
        ? `${stored} (as remembered)`
        : `not listed now (${stored})`
      : tool.availability === 'withheld'
        ? `WITHHELD (${revokedBy ?? tool.status})`
        : tool.availability === 'approved-on-next-start'
          ? `new (approved at next start)`
          : 'available';
  const extras = [
    tool.alwaysAllowed ? 'always allowed' : '',
    tool.approvedBy ? `approved by ${tool.approvedBy}` : '',
    tool.wasApprovedBy ? `pin kept, was approved by ${tool.wasApprovedBy}` : '',
  ]
    .filter((part) => part !== '')
    .join(', ');
  const lines = [`    ${name.padEnd(32)} ${state}${extras === '' ? '' : `  [${extras}]`}`];
  for (const flag of tool.hiddenContent) lines.push(`      ! hidden content: ${flag}`);
  if (tool.withheldBecause !== undefined) lines.push(`      ${tool.withheldBecause}`);
  return lines.join('\n');
}

/** Plain text, one block per server; `offline` when no server was started to list its tools (`trust --offline`). */
export function formatTrustReport(report: readonly TrustReportServer[], { offline = false } = {}): string {
  if (report.length === 0) return 'No servers in the config or the trust store.\n';
  const blocks = report.map((server) => {
    const trust = server.trust === undefined ? '' : `, ${server.trust}`;
    const disabled = server.disabled ? ', disabled' : '';
    const lines = [`${showRaw(server.name)} (${SERVER_STATUS_WORDS[server.status]}${trust}${disabled})`];
    // A start failure can carry the server's stderr tail over several lines; they stay under the server they belong to.
    if (server.error !== undefined)
      lines.push(`    could not list its tools: ${server.error.split('\n').join('\n      ')}`);
    if (server.tools.length === 0) lines.push('    (no tools known)');
    const serverRevoked =
      server.status === 'revoked' || (server.status === 'not-in-config' && server.wasApprovedBy !== undefined);
    for (const tool of server.tools) lines.push(toolLine(tool, serverRevoked, offline));
    return lines.join('\n');
  });
  const note = offline ? '(--offline: no server was started; each tool as the trust store remembers it)\n\n' : '';
  return `${note}${blocks.join('\n\n')}\n`;
}
