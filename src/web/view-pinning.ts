/**
 * Views are pinned like tool definitions, in the same trust store: on first sight the view's HTML is fingerprinted
 * (SHA-256) and kept under its server as an entry named by its `ui://` URI (no tool name can contain `://`). A view
 * whose HTML changed since is shown only after the user approves it again, unless its server is trusted; a revoked
 * view asks the same way.
 */

import type { ServerTrust } from '../config/types.js';
import type { Approver } from '../policy/approver.js';
import type { PinnableTool } from '../policy/tool-definition.js';
import type { TrustStore } from '../policy/trust-store.js';

export class ViewNotApprovedError extends Error {}

type ViewPin = 'approved' | 'first-sight' | 'trusted-server' | 'user';

function pinnable(uri: string, sha256: string): PinnableTool {
  return { name: uri, description: `MCP Apps view (text/html;profile=mcp-app), HTML SHA-256 ${sha256}` };
}

export async function pinView(options: {
  store: TrustStore;
  approver: Approver;
  server: string;
  trust: ServerTrust;
  uri: string;
  sha256: string;
}): Promise<ViewPin> {
  const { store, server, uri } = options;
  const current = pinnable(uri, options.sha256);
  const check = store.checkTool(server, current);
  if (check === 'approved') return 'approved';
  if (check === 'new') {
    store.approveTool(server, current, 'first-sight');
    return 'first-sight';
  }
  if (options.trust === 'trusted') {
    store.approveTool(server, current, 'trusted-server');
    return 'trusted-server';
  }
  const previous = store.approvedDefinition(server, uri);
  const answer = await options.approver.approveToolDefinition({
    serverName: server,
    toolName: uri,
    originalToolName: uri,
    trust: options.trust,
    change: check === 'revoked' ? 'tool-revoked' : 'definition-changed',
    reason:
      check === 'revoked'
        ? `you revoked the view ${uri}; it is shown only after you approve it again`
        : `the HTML of the view ${uri} changed since you approved it; it is shown only after you approve it again`,
    ...(previous === undefined ? {} : { previous }),
    current: { name: uri, description: current.description! },
    diff: [
      ...(previous?.description === undefined ? [] : [`- ${previous.description}`]),
      `+ ${current.description}`,
    ].join('\n'),
    hiddenContent: [],
  });
  if (answer !== 'approve') {
    throw new ViewNotApprovedError(`The view ${uri} changed since you approved it and was not approved again.`);
  }
  store.approveTool(server, current, 'user');
  return 'user';
}
