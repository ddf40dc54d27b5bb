/**
 * Which of one server's tools the model may see, at start-up or after `notifications/tools/list_changed`, given
 * the server's trust level and what the trust store remembers. Pure: it reads statuses and returns decisions;
 * `reviewServerTools` applies them and asks the approver about the withheld ones.
 *
 * The policy, exactly:
 * - Server identity (name + hash of command line or URL) changed since approval, or the server was revoked:
 *   every tool is withheld until the server is approved again (its trust is lost, whatever the config says).
 * - First sight of a server (not in the store): its identity and every tool are recorded as approved — trust on
 *   first use — for trusted and untrusted servers alike. Exception: an untrusted server's tool whose description
 *   hides content (escape codes, invisible or direction characters, `<IMPORTANT>`-style tags, another server's
 *   tool names) is withheld until approved. A trusted server's such tool is recorded and exposed, with a notice.
 * - A known server:
 *   - a tool whose fingerprint matches its approval: exposed;
 *   - a tool whose definition changed since approval: withheld, on any server, until approved again;
 *   - a tool the user revoked: withheld until approved again;
 *   - a tool never seen before: on a trusted server recorded and exposed (with a notice when its description hides
 *     content); on an untrusted server withheld until approved.
 * Tools that disappeared keep their pins: if they come back unchanged they need no new approval.
 */

import { type ApprovalsPlace, trustApproveCommand } from '../config/trust-commands.js';
import type { ServerTrust } from '../config/types.js';
import type { WithholdReason } from './approver.js';
import { describeHiddenContent, type HiddenContentFlag } from './hidden-content.js';
import type { PinnableTool } from './tool-definition.js';
import type { ServerCheck, ToolCheck } from './trust-store.js';
import type { ApprovalOrigin } from './trust-store-file.js';

export interface ToolUnderReview {
  /** Namespaced name, for messages. */
  name: string;
  tool: PinnableTool;
  status: ToolCheck;
  hiddenContent: HiddenContentFlag[];
}

interface PartitionInput {
  /** Where the approvals are kept (config file, chosen state folder), named in the approve commands suggested. */
  approvals?: ApprovalsPlace;
  serverName: string;
  trust: ServerTrust;
  serverStatus: ServerCheck;
  tools: readonly ToolUnderReview[];
}

export interface WithheldTool {
  entry: ToolUnderReview;
  reason: WithholdReason;
  /** What to tell the user when no one approves it now, including the command that would. */
  message: string;
}

interface ToolPartition {
  /** Tools the model may see. */
  exposed: ToolUnderReview[];
  /** Exposed tools whose approval must be saved now, and why they are approved. */
  toRecord: Array<{ entry: ToolUnderReview; origin: Extract<ApprovalOrigin, 'first-sight' | 'trusted-server'> }>;
  withheld: WithheldTool[];
  /** Things worth telling the user about exposed tools (a trusted server's tool with hidden content). */
  notices: string[];
}

export function partitionTools(input: PartitionInput): ToolPartition {
  const { serverName, trust, serverStatus } = input;
  const result: ToolPartition = { exposed: [], toRecord: [], withheld: [], notices: [] };
  const withhold = (entry: ToolUnderReview, reason: WithholdReason): void => {
    result.withheld.push({ entry, reason, message: withholdMessage(serverName, entry, reason, input.approvals) });
  };

  for (const entry of input.tools) {
    if (serverStatus === 'changed' || serverStatus === 'revoked') {
      withhold(entry, serverStatus === 'changed' ? 'server-changed' : 'server-revoked');
      continue;
    }
    if (entry.status === 'approved') {
      result.exposed.push(entry);
      continue;
    }
    if (entry.status === 'changed' || entry.status === 'revoked') {
      withhold(entry, entry.status === 'changed' ? 'definition-changed' : 'tool-revoked');
      continue;
    }
    // A tool never seen before.
    const hidesContent = entry.hiddenContent.length > 0;
    if (trust !== 'trusted' && hidesContent) {
      withhold(entry, 'hidden-content');
      continue;
    }
    if (trust !== 'trusted' && serverStatus === 'known') {
      withhold(entry, 'new-tool-untrusted');
      continue;
    }
    result.exposed.push(entry);
    result.toRecord.push({ entry, origin: serverStatus === 'new' ? 'first-sight' : 'trusted-server' });
    if (hidesContent) {
      result.notices.push(
        `tool ${entry.name} of trusted server ${serverName} has hidden content in its definition: ${describeHiddenContent(entry.hiddenContent).join('; ')}. It is available because the server is trusted; review it with \`mcp-host trust\`.`,
      );
    }
  }
  return result;
}

/** One line for a whole server withheld (changed or revoked), instead of one per tool. */
export function serverWithheldSummary(
  serverName: string,
  reason: 'server-changed' | 'server-revoked',
  toolNames: readonly string[],
  approvals?: ApprovalsPlace,
): string {
  const why =
    reason === 'server-changed'
      ? `server ${serverName} now runs a different command line or URL than the one approved`
      : `server ${serverName} was revoked`;
  const shown = toolNames.length > 5 ? [...toolNames.slice(0, 5), `and ${toolNames.length - 5} more`] : toolNames;
  return `${why}; its ${toolNames.length} tool(s) (${shown.join(', ')}) are withheld until you approve it: ${trustApproveCommand({ server: serverName }, approvals)}`;
}

function withholdMessage(
  serverName: string,
  entry: ToolUnderReview,
  reason: WithholdReason,
  approvals?: ApprovalsPlace,
): string {
  const approveTool = trustApproveCommand({ server: serverName, tool: entry.tool.name }, approvals);
  const approveServer = trustApproveCommand({ server: serverName }, approvals);
  switch (reason) {
    case 'server-changed':
      return `server ${serverName} now runs a different command line or URL than the one approved; ${entry.name} is withheld from the model until you approve the server again (${approveServer}).`;
    case 'server-revoked':
      return `server ${serverName} was revoked; ${entry.name} is withheld from the model until you approve the server again (${approveServer}).`;
    case 'definition-changed':
      return `tool ${entry.name} changed since it was approved; it is withheld from the model until you review and approve it (${approveTool}).`;
    case 'tool-revoked':
      return `tool ${entry.name} was revoked; it is withheld from the model until you approve it again (${approveTool}).`;
    case 'new-tool-untrusted':
      return `tool ${entry.name} appeared on untrusted server ${serverName} after its first start; it is withheld from the model until you approve it (${approveTool}).`;
    case 'hidden-content':
      return `tool ${entry.name} of untrusted server ${serverName} has hidden content in its definition (${describeHiddenContent(entry.hiddenContent).join('; ')}); it is withheld from the model until you approve it (${approveTool}).`;
  }
}
