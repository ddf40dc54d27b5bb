/**
 * Pinning at the catalog's door: each time a server's tools are listed (start-up, `list_changed`,
 * a restart), the trust store decides which the model may see. New or changed definitions wait
 * for approval; what is withheld is said on stderr and recorded.
 */
import type { Tool } from '@modelcontextprotocol/client';
import type { AuditRecorder } from '../audit/audit-recorder.js';
import { assignToolNames } from '../catalog/tool-naming.js';
import type { HostConfig } from '../config/types.js';
import type { Approver } from '../policy/approver.js';
import { reviewServerTools } from '../policy/review-server-tools.js';
import type { TrustStore } from '../policy/trust-store.js';
import { serverConfigOf } from './call-duties.js';

export interface ReviewToolsOptions {
  config: HostConfig;
  trustStore: TrustStore;
  approver: Approver;
  audit: () => AuditRecorder;
  /** Every server's latest listing, for flagging descriptions that name another server's tools. */
  otherToolNames: (server: string) => string[];
  onNotice: (message: string) => void;
}

export function createToolReview(options: ReviewToolsOptions) {
  return async (server: string, tools: Tool[]): Promise<Tool[]> => {
    const config = serverConfigOf(options.config, server);
    if (!config) return tools;
    const named = assignToolNames(tools.map((tool) => ({ server, tool: tool.name })));
    const byOriginal = new Map(tools.map((tool) => [tool.name, tool]));
    const review = await reviewServerTools({
      store: options.trustStore,
      server: config,
      tools: named.map((entry) => ({ name: entry.name, tool: byOriginal.get(entry.tool)! })),
      approver: options.approver,
      otherServerToolNames: options.otherToolNames(server),
      secrets: options.config.secrets,
      onNotice: options.onNotice,
      onTrustChange: (change) => void options.audit().trustChange(change),
    });
    return tools.filter((tool) => review.exposed.has(tool.name));
  };
}
