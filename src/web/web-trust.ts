/**
 * Approve and revoke from the Trust page, as `mcp-host trust approve|revoke` does: the same trust store (per config
 * file, in the state folder), the same trust-change records in the audit log, then the server's tools are listed
 * and reviewed again so the catalog follows at once. A question the host is waiting on for that tool is answered
 * instead, so the host's own review records the approval.
 */

import type { TrustChangeFields } from '../audit/audit-record.js';
import { openTrustChangeLog } from '../audit/trust-change-log.js';
import type { Host } from '../host/create-host.js';
import { fingerprintDefinition } from '../policy/tool-definition.js';
import { TrustStore } from '../policy/trust-store.js';
import type { TrustChangeBody } from './api-types.js';
import { listedTools } from './views.js';
import type { WebApprover } from './web-approver.js';

export interface WebTrust {
  store(host: Host): TrustStore;
  approve(host: Host, body: TrustChangeBody): Promise<{ ok: true; message: string }>;
  revoke(host: Host, body: TrustChangeBody): Promise<{ ok: true; message: string }>;
}

export class TrustChangeError extends Error {}

export function createWebTrust(options: { auditFile: () => string; approver: WebApprover }): WebTrust {
  const stores = new WeakMap<Host, TrustStore>();
  const storeOf = (host: Host): TrustStore => {
    const store = stores.get(host) ?? openTrustStore(host);
    stores.set(host, store);
    return store;
  };
  const record = (host: Host, change: Omit<TrustChangeFields, 'by'>) => {
    const log = openTrustChangeLog(options.auditFile(), { secrets: host.config.secrets, by: 'web' });
    try {
      log.record(change);
    } finally {
      log.close();
    }
  };
  const configOf = (host: Host, name: string) => {
    const config = host.config.servers.find((server) => server.name === name);
    if (config === undefined) throw new TrustChangeError(`No server named "${name}" in the config.`);
    return config;
  };

  return {
    store: storeOf,
    async approve(host, body) {
      const config = configOf(host, body.server);
      // The host is waiting on this very question: answer it, so its own review approves and records it.
      const waiting = options.approver.pending().find(
        (approval) =>
          approval.server === body.server &&
          (body.tool === undefined ? approval.kind === 'server' : approval.kind === 'tool-definition') &&
          // Exactly the tool named: "data" is not "fetch_data".
          (body.tool === undefined || approval.originalTool === body.tool),
      );
      if (waiting !== undefined && options.approver.answer(waiting.id, { answer: 'approve' }) === undefined) {
        return { ok: true, message: `Approved ${body.tool ?? body.server}.` };
      }
      const store = storeOf(host);
      const tools = (await listedTools(host)).get(body.server) ?? [];
      const chosen = body.tool === undefined ? tools : tools.filter((entry) => entry.tool.name === body.tool);
      if (body.tool !== undefined && chosen.length === 0) {
        throw new TrustChangeError(`${body.server} does not list a tool named "${body.tool}".`);
      }
      const serverStatus = store.checkServer(config);
      if (serverStatus !== 'known' && (body.tool === undefined || serverStatus === 'new')) {
        // Recorded first: a change the audit log cannot take is not made.
        record(host, {
          serverName: body.server,
          change: 'server-approved',
          detail: `Approved from the web UI (was ${serverStatus}).`,
        });
        store.approveServer(config, 'user');
      }
      store.batch(() => {
        for (const entry of chosen) {
          const status = store.checkTool(body.server, entry.tool);
          if (status === 'approved') continue;
          record(host, {
            serverName: body.server,
            toolName: entry.tool.name,
            change: 'tool-approved',
            detail: `Approved from the web UI (was ${status}).`,
            fingerprint: fingerprintDefinition(entry.tool),
          });
          store.approveTool(body.server, entry.tool, 'user');
        }
      });
      await host.reviewTools(body.server);
      return { ok: true, message: `Approved ${body.tool ?? body.server}.` };
    },
    async revoke(host, body) {
      configOf(host, body.server);
      const store = storeOf(host);
      if (!store.revoke(body.server, body.tool)) {
        throw new TrustChangeError(`${body.tool ?? body.server} is not in the trust store.`);
      }
      record(host, {
        serverName: body.server,
        ...(body.tool === undefined ? {} : { toolName: body.tool }),
        change: body.tool === undefined ? 'server-revoked' : 'tool-revoked',
        detail: 'Revoked from the web UI.',
      });
      // The user just said no: the review that follows must not ask them again.
      await options.approver.rejectDefinitionsWhile(body.server, () => host.reviewTools(body.server));
      return { ok: true, message: `Revoked ${body.tool ?? body.server}: withheld until approved again.` };
    },
  };
}

/** The store a run of the same config uses (approvals are kept per config file), as the trust command opens it. */
function openTrustStore(host: Host): TrustStore {
  const store = TrustStore.inStateDir(host.stateDir, { scope: host.config.file ?? '' });
  store.useConfiguredServers(host.config.servers);
  return store;
}
