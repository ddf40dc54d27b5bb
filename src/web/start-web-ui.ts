/**
 * `mcp-host ui`: the web UI on loopback. The HTTP server starts first, so questions the host asks while it starts
 * (a changed tool, a changed server) already have a page to appear on; the host then starts behind it with the
 * browser as its approver. The URL printed carries a random token made for this start.
 */

import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { resolveAuditLogPath } from '../audit/audit-log-path.js';
import { followAuditLog } from '../audit/follow-audit-log.js';
import { readAuditLog } from '../audit/read-audit-log.js';
import { createHost, type Host, type HostOptions } from '../host/create-host.js';
import { openSessionStore } from '../sessions/session-store.js';
import type { HostStateView, ServerLogView } from './api-types.js';
import { createAppViews } from './app-views.js';
import { createAuditTimeline } from './audit-timeline.js';
import { createChatRunner } from './chat-runner.js';
import { createLiveEvents } from './live-events.js';
import { acceptedHosts, isLoopbackAddress } from './loopback.js';
import { createResourceSubscriptions } from './resource-subscriptions.js';
import { type SandboxServer, startSandboxServer } from './sandbox-server.js';
import { watchSessionFiles } from './session-files-watch.js';
import { DEFAULT_ASSET_FOLDER } from './static-files.js';
import { createUiServer } from './ui-server.js';
import { pinView } from './view-pinning.js';
import { displayModel, serverLogView } from './views.js';
import { createWebApp } from './web-app.js';
import { createWebApprover } from './web-approver.js';
import { createWebTrust } from './web-trust.js';

/** Server log messages the Servers page starts with (all servers together); older ones stay in the log files. */
const SERVER_LOG_HISTORY_LIMIT = 1_000;
/** The audit records the Audit page starts with; older ones stay in the log (`mcp-host audit`). */
const AUDIT_HISTORY_LIMIT = 1_000;

interface WebUiOptions {
  /** Default 127.0.0.1. Only loopback addresses are accepted. */
  hostname?: string;
  /** Default 0: a free port. */
  port?: number;
  /** Passed to `createHost`; its approver and client-request approver are the browser. */
  host?: Omit<HostOptions, 'approver' | 'clientRequestApprover' | 'warningsSayServerExits'>;
  /** The built browser app (default: the package's `dist/web`). */
  assetFolder?: string;
}

interface WebUi {
  /** The address to open, with this start's token. */
  readonly url: string;
  /** Resolves when the host has started (or rejects when it could not). */
  readonly ready: Promise<Host>;
  close(): Promise<void>;
}

class WebUiError extends Error {}

export async function startWebUi(options: WebUiOptions = {}): Promise<WebUi> {
  const hostname = options.hostname ?? '127.0.0.1';
  if (!isLoopbackAddress(hostname)) {
    throw new WebUiError(
      `the web UI listens on this machine only: --host must be a loopback address (127.0.0.1, ::1 or localhost), not "${hostname}"`,
    );
  }
  const token = randomBytes(24).toString('base64url');
  const events = createLiveEvents();
  let host: Host | undefined;
  const approver = createWebApprover(
    (pending) => events.publish({ type: 'approvals', pending }),
    (server) => host?.connection(server)?.callsInFlight ?? 0,
  );
  const chat = createChatRunner(events, () => approver.turnEnded());
  const subscriptions = createResourceSubscriptions(events);
  let state: HostStateView = { phase: 'starting' };
  let auditFile: string | undefined;
  const audit = createAuditTimeline(AUDIT_HISTORY_LIMIT);
  /** The log as it was when the host started, read into `audit`; following it goes on from its end. */
  let auditRead: Promise<{ endOffset: number }> | undefined;
  /** Aborted when the UI closes: what follows files (the audit log, the sessions folder) stops, or never starts. */
  const stopFollowing = new AbortController();
  const setState = (next: HostStateView) => {
    state = next;
    events.publish({ type: 'host', state });
  };
  const trust = createWebTrust({ auditFile: () => auditFile!, approver });
  let hosts = new Set<string>();
  const serverLogs: ServerLogView[] = [];
  let serverLogsSeen = 0;
  let sandbox: SandboxServer | undefined;
  const views = createAppViews({
    sandboxOrigin: () => sandbox!.origin,
    pin: (started, server, uri, sha256) =>
      pinView({
        store: trust.store(started),
        approver,
        server,
        trust: started.config.servers.find((candidate) => candidate.name === server)?.trust ?? 'untrusted',
        uri,
        sha256,
      }),
  });

  const app = createWebApp({
    token,
    hosts: () => hosts,
    assetFolder: options.assetFolder ?? DEFAULT_ASSET_FOLDER,
    state: () => state,
    host: () => host,
    approver,
    events,
    trust,
    chat,
    serverLogs: () => serverLogs,
    views,
    sandboxOrigin: () => sandbox?.origin,
    subscriptions,
    auditHistory: async () => {
      await auditRead;
      return audit.recent();
    },
  });
  const server = createUiServer(app.fetch);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, hostname, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  hosts = acceptedHosts(hostname, port);
  // Views are served from a second loopback port: another origin than the UI, so they cannot reach it.
  sandbox = await startSandboxServer({ hostname, views, uiHosts: () => hosts }).catch(async (error: unknown) => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    throw error;
  });
  const shownHost = hostname.includes(':') ? `[${hostname}]` : hostname;
  const url = `http://${shownHost}:${port}/?token=${token}`;

  const hostOptions = options.host ?? {};
  const ready = createHost({
    ...hostOptions,
    approver,
    clientRequestApprover: approver,
    // The page shows the warnings; the exit reports of `onDiagnostic` go to the terminal, which the page's reader
    // may not see.
    warningsSayServerExits: true,
    onServerLog: (entry) => {
      hostOptions.onServerLog?.(entry);
      serverLogsSeen += 1;
      const view = serverLogView(entry, serverLogsSeen);
      serverLogs.push(view);
      if (serverLogs.length > SERVER_LOG_HISTORY_LIMIT)
        serverLogs.splice(0, serverLogs.length - SERVER_LOG_HISTORY_LIMIT);
      events.publish({ type: 'server-log', entry: view });
    },
    onResourceUpdated: (update) => {
      hostOptions.onResourceUpdated?.(update);
      subscriptions.updated(update);
    },
    onToolsChanged: (name) => {
      hostOptions.onToolsChanged?.(name);
      events.publish({ type: 'catalog' });
    },
  });
  ready.then(
    async (started) => {
      host = started;
      auditFile = resolveAuditLogPath({
        ...((hostOptions.auditFile ?? started.config.auditFile)
          ? { flag: hostOptions.auditFile ?? started.config.auditFile }
          : {}),
        stateDir: started.stateDir,
        env: hostOptions.env ?? process.env,
        cwd: hostOptions.cwd ?? process.cwd(),
      });
      const model = safeModel(started, hostOptions.model);
      setState({
        phase: 'ready',
        runId: started.runId,
        ...(started.config.file === undefined ? {} : { configFile: started.config.file }),
        ...(model === undefined ? {} : { model }),
      });
      const file = auditFile;
      auditRead = readAuditLog(file, {}, { keepLast: AUDIT_HISTORY_LIMIT }).then((contents) => {
        for (const record of contents.records) audit.add(record);
        return contents;
      });
      void followAudit(file, auditRead);
      watchSessionFiles({
        folder: openSessionStore(started.stateDir).directory,
        onChange: () => events.publish({ type: 'sessions' }),
        listingMs: chat.listingMs,
        // The host may have started after the UI was closed: the watcher then never looks.
        signal: stopFollowing.signal,
      });
    },
    (error: unknown) => setState({ phase: 'failed', error: error instanceof Error ? error.message : String(error) }),
  );

  async function followAudit(file: string, read: Promise<{ endOffset: number }>): Promise<void> {
    try {
      const start = await read;
      for await (const record of followAuditLog(file, { signal: stopFollowing.signal, startOffset: start.endOffset })) {
        events.publish({ type: 'audit', entry: audit.add(record) });
      }
    } catch {
      // Following ends with the UI (the signal), or when the log cannot be read: pages keep what was read by then,
      // and `mcp-host audit` reads the rest.
    }
  }

  let closing: Promise<void> | undefined;
  return {
    url,
    ready,
    close: () => {
      closing ??= (async () => {
        stopFollowing.abort();
        chat.cancel();
        approver.close();
        server.closeAllConnections?.();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await sandbox?.close();
        const started = await ready.catch(() => undefined);
        await started?.close();
      })();
      return closing;
    },
  };
}

function safeModel(host: Host, flag: string | undefined): string | undefined {
  const spec = flag ?? host.config.model;
  return spec === undefined ? undefined : displayModel(spec);
}
