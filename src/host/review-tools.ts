/**
 * Pinning at the catalog's door: each time a server's tools are listed (start-up, `list_changed`,
 * a restart), the trust store decides which the model may see. New or changed definitions wait
 * for approval; what is withheld is said on stderr and recorded, and explained to a model that
 * calls such a tool by name anyway.
 */
import type { Tool } from '@modelcontextprotocol/client';
import type { AuditRecorder } from '../audit/audit-recorder.js';
import { serverConfigOf } from '../config/server-config-of.js';
import { type ApprovalsPlace, trustApproveCommand } from '../config/trust-commands.js';
import type { HostConfig } from '../config/types.js';
import type { Approver, WithholdReason } from '../policy/approver.js';
import { reviewServerTools } from '../policy/review-server-tools.js';
import type { TrustStore } from '../policy/trust-store.js';
import type { ReviewedTools } from './live-catalog.js';

interface ReviewToolsOptions {
  config: HostConfig;
  /** Where the approvals are kept, named in the approve commands of withheld tools. */
  approvals: ApprovalsPlace;
  trustStore: TrustStore;
  approver: Approver;
  audit: () => AuditRecorder;
  /** Every server's latest listing, for flagging descriptions that name another server's tools. */
  otherToolNames: (server: string) => string[];
  /** The catalog name of a listed tool, from the one place names are decided. */
  toolName: (server: string, tool: string) => string | undefined;
  onNotice: (message: string) => void;
  /** Stops a review in progress (start-up interrupted). */
  signal?: AbortSignal;
}

export function createToolReview(options: ReviewToolsOptions) {
  return async (server: string, tools: Tool[]): Promise<ReviewedTools> => {
    const config = serverConfigOf(options.config, server);
    if (!config) return { exposed: tools };
    const review = await reviewServerTools({
      store: options.trustStore,
      server: config,
      tools: tools.map((tool) => ({ name: options.toolName(server, tool.name) ?? tool.name, tool })),
      approver: options.approver,
      otherServerToolNames: options.otherToolNames(server),
      secrets: options.config.secrets,
      onNotice: options.onNotice,
      // Awaited: a change the audit log cannot take fails the review (start-up, or this re-listing, with its error).
      onTrustChange: (change) => options.audit().trustChange(change),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      approvals: options.approvals,
    });
    return {
      exposed: tools.filter((tool) => review.exposed.has(tool.name)),
      withheld: review.withheld.map((item) => ({
        name: item.toolName,
        explanation: explainWithheld(server, item.originalToolName, item.reason, options.approvals),
        forPerson: tellPersonWithheld(item.toolName, server, item.originalToolName, item.reason, options.approvals),
      })),
    };
  };
}

const WHY: Record<WithholdReason, (server: string) => string> = {
  'definition-changed': () => 'its definition changed since the user approved it',
  'tool-revoked': () => 'the user revoked it',
  'new-tool-untrusted': (server) => `it appeared on the untrusted server ${server} after the server first started`,
  'hidden-content': () =>
    "its definition holds hidden or suspicious content (escape codes, invisible text, instructions or other servers' tool names)",
  'server-changed': (server) => `the server ${server} now runs a different command line or URL than the one approved`,
  'server-revoked': (server) => `the user revoked the server ${server}`,
};

/** The same reasons told to the person who approves and revokes. */
const WHY_FOR_PERSON: Record<WithholdReason, (server: string) => string> = {
  'definition-changed': () => 'its definition changed since you approved it',
  'tool-revoked': () => 'you revoked it',
  'new-tool-untrusted': (server) => `it appeared on the untrusted server ${server} after the server first started`,
  'hidden-content': () =>
    "its definition holds hidden or suspicious content (escape codes, invisible text, instructions or other servers' tool names)",
  'server-changed': (server) =>
    `the server ${server} now runs a different command line or URL than the one you approved`,
  'server-revoked': (server) => `you revoked the server ${server}`,
};

/** A server's change or revocation is approved for the whole server; anything else, for the tool. */
function approveCommandOf(server: string, toolName: string, reason: WithholdReason, approvals: ApprovalsPlace): string {
  return reason === 'server-changed' || reason === 'server-revoked'
    ? trustApproveCommand({ server }, approvals)
    : trustApproveCommand({ server, tool: toolName }, approvals);
}

/** For the model (it follows "Unknown tool …"): why the tool is not offered, and what the user can do about it. */
function explainWithheld(server: string, toolName: string, reason: WithholdReason, approvals: ApprovalsPlace): string {
  const command = approveCommandOf(server, toolName, reason, approvals);
  return `it is withheld until the user approves it, because ${WHY[reason](server)}. The user can approve it with \`${command}\`; until then it cannot be called.`;
}

/** For the person who called it by name (`tools call`): what is withheld, why, and the command that approves it. */
function tellPersonWithheld(
  catalogName: string,
  server: string,
  toolName: string,
  reason: WithholdReason,
  approvals: ApprovalsPlace,
): string {
  const command = approveCommandOf(server, toolName, reason, approvals);
  return `${catalogName} is withheld because ${WHY_FOR_PERSON[reason](server)}; approve it with: ${command}`;
}
