/**
 * One host per profile (the whole config when no profile is named), started on first use and shared by every
 * downstream session of that profile: the servers run once, whatever the number of clients.
 */

import { InMemoryServerEventBus, type ServerEventBus } from '@modelcontextprotocol/server';
import type { GatewayConsent, GatewayProfile } from '../config/gateway-settings.js';
import { DEFAULT_GATEWAY_SETTINGS, type GatewaySettings } from '../config/gateway-settings.js';
import type { HostConfig } from '../config/types.js';
import { createHost, HOST_TOOLS_SERVER, type Host, type HostOptions } from '../host/create-host.js';
import { matchesGlob } from '../policy/glob.js';
import { createGatewayApprover } from './gateway-approver.js';
import { ProfileSessions } from './profile-sessions.js';
import { ResourceSubscriptions } from './resource-subscriptions.js';
import { retryFailedServers } from './retry-failed-servers.js';

/** What a session needs of its profile. */
export interface ProfileHost {
  name: string | undefined;
  host: Host;
  consent: GatewayConsent;
  /** Whether the profile offers this namespaced tool (servers and `tools` globs). */
  offersTool(name: string, server: string): boolean;
  offersServer(server: string): boolean;
  /** Its downstream sessions: where servers' log messages, list changes, sampling and elicitation go. */
  sessions: ProfileSessions;
  /** Its sessions' and listen streams' resource subscriptions, one upstream subscription per resource. */
  subscriptions: ResourceSubscriptions;
  /** What its `subscriptions/listen` streams (2026-07-28 revision) hear: list changes and resource updates. */
  events: ServerEventBus;
}

/**
 * The config as a profile sees it: its servers only, its rules added to the config's own, and no skills. Skills are
 * the operator's text for the host's own model, listed in a system prompt no client of the gateway is given; offered
 * to clients, they would hand any of them every skill's body and files, and one client's `load_skill` would narrow
 * every client's calls, as all their calls are made in one run.
 */
function profileConfig(config: HostConfig, profile: GatewayProfile | undefined): HostConfig {
  if (profile === undefined) return { ...config, skills: false };
  const servers =
    profile.servers.length === 0
      ? config.servers
      : config.servers.filter((server) => profile.servers.includes(server.name));
  return {
    ...config,
    skills: false,
    servers,
    permissions: {
      allow: [...config.permissions.allow, ...profile.permissions.allow],
      ask: [...config.permissions.ask, ...profile.permissions.ask],
      deny: [...config.permissions.deny, ...profile.permissions.deny],
    },
  };
}

export class UnknownProfileError extends Error {}

export interface GatewayHosts {
  settings: GatewaySettings;
  /** `undefined`: the whole config. Throws `UnknownProfileError`. */
  get(profile: string | undefined): Promise<ProfileHost>;
  /** The profile's host if it was started (or is starting), without starting it. */
  started(profile: string | undefined): Promise<ProfileHost> | undefined;
  onToolsChanged(listener: (profile: string | undefined) => void): void;
  /**
   * Closes the started profiles' sessions (`ProfileSessions.close`), as the gateway does before its clients'
   * connections: a client leaving as the gateway shuts down has the servers asked for no level just before they stop.
   */
  closeSessions(): Promise<void>;
  close(): Promise<void>;
}

export function createGatewayHosts(
  config: HostConfig,
  hostOptions: Omit<HostOptions, 'config' | 'approver' | 'onToolsChanged'>,
): GatewayHosts {
  const settings = config.gateway ?? DEFAULT_GATEWAY_SETTINGS;
  const started = new Map<string, Promise<ProfileHost>>();
  const listeners: Array<(profile: string | undefined) => void> = [];
  const stopRetries: Array<() => Promise<void>> = [];
  // A profile still starting as the gateway closes is closed once started: it must not begin retrying its servers.
  let closing = false;
  const start = async (name: string | undefined): Promise<ProfileHost> => {
    // The name comes from the request path: `constructor` must not find Object's.
    const profiles = config.profiles ?? {};
    const profile = name !== undefined && Object.hasOwn(profiles, name) ? profiles[name] : undefined;
    if (name !== undefined && profile === undefined) {
      const known = Object.keys(profiles);
      throw new UnknownProfileError(
        `no profile is named "${name}" (profiles: ${known.length > 0 ? known.join(', ') : 'none configured'})`,
      );
    }
    const events = new InMemoryServerEventBus();
    let running: Host | undefined;
    const sessions = new ProfileSessions(settings.approvalTimeoutMs, events, async (level) => {
      await running?.setServersLoggingLevel(level);
    });
    const subscriptions = new ResourceSubscriptions(
      {
        subscribe: async (server, uri) => {
          if (running === undefined) throw new Error('the gateway is still starting');
          await running.resources.subscribe(server, uri);
        },
        // Through the connection even when its server is down: it then forgets the URI instead of renewing it.
        unsubscribe: async (server, uri) => running?.connection(server)?.subscribeResource(uri, false),
      },
      events,
    );
    const host = await createHost({
      ...hostOptions,
      config: profileConfig(config, profile),
      approver: createGatewayApprover(),
      // A client hears its call's warnings; the exit reports of `onDiagnostic` go to the gateway's stderr, which the
      // client does not see.
      warningsSayServerExits: true,
      onToolsChanged: () => {
        for (const listener of listeners) listener(name);
      },
      onResourceUpdated: (update) => {
        hostOptions.onResourceUpdated?.(update);
        subscriptions.updated(update);
      },
      onServerLog: (entry, call) => {
        hostOptions.onServerLog?.(entry, call);
        sessions.log(entry, call);
      },
      clientFeatures: {
        ...hostOptions.clientFeatures,
        forwarder: sessions,
        onListChanged: (_server, kind) => sessions.changed(kind),
      },
    });
    running = host;
    if (settings.retryFailedServersMs > 0 && !closing) {
      const retries = retryFailedServers(host, settings.retryFailedServersMs, (message) =>
        hostOptions.onDiagnostic?.(message),
      );
      stopRetries.push(retries.stop);
    }
    const toolGlobs = profile?.tools ?? [];
    return {
      name,
      host,
      consent: profile?.consent ?? settings.consent,
      sessions,
      subscriptions,
      events,
      offersServer: (server) => host.config.servers.some((entry) => entry.name === server),
      offersTool: (tool, server) =>
        (server === HOST_TOOLS_SERVER || host.config.servers.some((entry) => entry.name === server)) &&
        (toolGlobs.length === 0 || toolGlobs.some((pattern) => matchesGlob(pattern, tool))),
    };
  };
  const closeSessions = async (): Promise<void> => {
    const hosts = await Promise.allSettled(started.values());
    for (const result of hosts) if (result.status === 'fulfilled') result.value.sessions.close();
  };
  return {
    settings,
    get(name) {
      const key = name ?? '';
      let entry = started.get(key);
      if (entry === undefined) {
        entry = start(name);
        started.set(key, entry);
        // A profile that failed to start may be asked for again (e.g. after a typo in a path is fixed).
        entry.catch(() => started.delete(key));
      }
      return entry;
    },
    started(name) {
      return started.get(name ?? '');
    },
    onToolsChanged(listener) {
      listeners.push(listener);
    },
    closeSessions,
    async close() {
      closing = true;
      await Promise.all(stopRetries.map((stop) => stop()));
      await closeSessions();
      const hosts = await Promise.allSettled(started.values());
      await Promise.all(hosts.flatMap((result) => (result.status === 'fulfilled' ? [result.value.host.close()] : [])));
    },
  };
}
