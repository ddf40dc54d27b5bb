/**
 * Everything the host offers servers beyond calling their tools, in one place for the host to wire: the
 * capabilities the client declares (roots, sampling, elicitation) and, for each new client, the handlers that
 * answer them — plus servers' log messages and elicitation completions. The host passes `capabilities` and
 * `configureClient` to the connections layer and asks this object for the resource host tools.
 */
import path from 'node:path';
import type { Client, ClientCapabilities } from '@modelcontextprotocol/client';
import type { AuditSink } from '../audit/audit-sink.js';
import { redactText, redactValues } from '../audit/redact.js';
import { UI_EXTENSION_CAPABILITY } from '../catalog/tool-ui.js';
import { resolveStateDir } from '../config/state-dir.js';
import type { HostConfig, ServerConfig } from '../config/types.js';
import { callOfStream } from '../connections/call-streams.js';
import { createLogRateGate, LOG_MESSAGES_PER_SECOND, type LogRateGate } from '../connections/log-rate-gate.js';
import type { ServerConnection } from '../connections/server-connection.js';
import { DEFAULT_RESULT_TOKEN_BUDGET } from '../content/default-result-budget.js';
import { applyOutputBudget } from '../content/output-budget.js';
import { showRaw } from '../policy/hidden-content.js';
import type { LlmProvider } from '../providers/types.js';
import type { ClientRequestApprover } from './client-request-approver.js';
import { auditClientRequests, type ClientRequestRecorder } from './client-request-audit.js';
import { ELICITATION_COMPLETE_WAIT_MS, ElicitationCompletions } from './elicitation-completions.js';
import { type ClientRequestForwarder, installForwardingHandlers } from './forward-client-requests.js';
import { askToOpenRequiredUrl, createElicitationHandler, type UrlToOpen } from './handle-elicitation-request.js';
import { createSamplingHandler } from './handle-sampling-request.js';
import { createHeadlessClientRequestApprover } from './headless-client-request-approver.js';
import { createSystemUrlOpener, type UrlOpener } from './open-url.js';
import { createResourceHostTools, type ResourceHostTools, type ResultBudget } from './resource-host-tools.js';
import { RootsRegistry, resolveRoots } from './roots-registry.js';
import { createServerLog, type ServerLog, type ServerLogEntry } from './server-log.js';
import { createWaitingQuestions, declined, refusedSampling } from './waiting-questions.js';

export interface ClientFeaturesOptions {
  config: HostConfig;
  /** Relative roots resolve against it. */
  cwd: string;
  /**
   * Roots as paths or `file://` URIs; overrides the config's `roots`. With neither, the roots capability is not
   * declared at all: a server such as server-filesystem then keeps the folders on its own command line.
   */
  roots?: readonly string[];
  /** Who answers sampling and elicitation. Default: headless (sampling denied unless `allowSampling`, forms declined). */
  approver?: ClientRequestApprover;
  /** With the default headless approver: let servers use the model without asking. Default false. */
  allowSampling?: boolean;
  /** The host's own model, created on first use. */
  provider: () => Promise<LlmProvider>;
  /** Builds the provider for a `provider:model` named in the config's `sampling` settings. */
  createProvider?: (spec: string) => Promise<LlmProvider>;
  /** Which elicitation modes to declare. Default both. */
  elicitation?: { form?: boolean; url?: boolean };
  /** Opens an approved URL. Default: the platform's opener, without a shell. */
  openUrl?: UrlOpener;
  /** Where per-server log files go; `false` keeps no files. Default `<state folder>/logs`. */
  serverLogDirectory?: string | false;
  /**
   * Every server log message as it arrives (`--verbose` prints them), with the call it came with when the transport
   * can tell (see connections/call-streams.ts).
   */
  onServerLog?: (entry: ServerLogEntry, call?: object) => void;
  /** A server said a resource the host subscribed to changed (`notifications/resources/updated`). */
  onResourceUpdated?: (update: { server: string; uri: string }) => void;
  onDiagnostic?: (message: string) => void;
  /** Sampling and elicitation requests are recorded here like tool calls. */
  audit?: { sink: AuditSink; runId: string; secrets?: readonly string[] };
  /** Output budget for what the resource tools return. Default: the config's `maxResultTokens` per result. */
  budget?: ResultBudget;
  /** A server's calls in flight: it may have as many questions waiting as that, when more than the usual bound. */
  callsInFlight?: (server: string) => number;
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * Pass servers' sampling and elicitation requests on instead of answering them here (the gateway forwards them to
   * its own client). The approver and the host's model are then not asked.
   */
  forwarder?: ClientRequestForwarder;
  /** A server said its resources or prompts changed (`notifications/…/list_changed`). */
  onListChanged?: (server: string, kind: 'resources' | 'prompts') => void;
}

export interface ClientFeatures {
  readonly capabilities: ClientCapabilities;
  /** Installs the request and notification handlers on a new client (pass to `connectServers`). */
  configureClient(client: Client, config: ServerConfig): void;
  readonly roots: RootsRegistry;
  readonly approver: ClientRequestApprover;
  /** The per-server log, when files are kept. */
  readonly serverLog?: ServerLog;
  /** The host tools through which the model lists and reads resources. */
  resourceTools(options: { connections: () => Iterable<ServerConnection> }): ResourceHostTools;
  /**
   * A call refused with -32042 (URL elicitation required): asks the user to open the URL, as a URL-mode
   * elicitation does, and opens it on `accept`. Declared URL elicitation off: `decline` without asking.
   */
  askToOpenRequiredUrl(
    serverName: string,
    url: UrlToOpen,
    signal?: AbortSignal,
  ): Promise<'accept' | 'decline' | 'cancel'>;
  /** Writes what is pending (log lines). */
  close(): Promise<void>;
}

export function createClientFeatures(options: ClientFeaturesOptions): ClientFeatures {
  const { config } = options;
  const diagnostic = options.onDiagnostic ?? (() => undefined);
  const approver = options.approver ?? createHeadlessClientRequestApprover({ allowSampling: options.allowSampling });
  const configuredRoots = options.roots ?? config.roots;
  const roots = new RootsRegistry(resolveRoots(configuredRoots ?? [], options.cwd), configuredRoots !== undefined);
  const openUrl = options.openUrl ?? createSystemUrlOpener();
  const completions = new ElicitationCompletions();
  const samplingTools = config.sampling?.tools ?? true;
  const form = options.elicitation?.form ?? true;
  const url = options.elicitation?.url ?? true;

  const capabilities: ClientCapabilities = {
    ...(roots.declared ? { roots: { listChanged: true } } : {}),
    sampling: samplingTools ? { tools: {} } : {},
    ...(form || url
      ? { elicitation: { ...(form ? { form: { applyDefaults: true } } : {}), ...(url ? { url: {} } : {}) } }
      : {}),
    // The web UI renders MCP Apps views; in the terminal a tool's view is pointed to, its result shown as text.
    extensions: UI_EXTENSION_CAPABILITY,
  };

  const logDirectory =
    options.serverLogDirectory === false
      ? undefined
      : (options.serverLogDirectory ?? path.join(resolveStateDir({ env: options.env, cwd: options.cwd }), 'logs'));
  const serverLog = logDirectory ? createServerLog({ directory: logDirectory, onError: diagnostic }) : undefined;

  const record: ClientRequestRecorder | undefined = options.audit ? auditClientRequests(options.audit) : undefined;
  // Shared by every server's handlers: each server's questions are counted on their own, whichever path answers them.
  const bounded = createWaitingQuestions(record, options.callsInFlight);
  const providers = new Map<string, Promise<LlmProvider>>();
  const logGates = new Set<LogRateGate>();
  const resolveProvider = (spec: string | undefined): Promise<LlmProvider> => {
    if (spec === undefined || options.createProvider === undefined) return options.provider();
    let provider = providers.get(spec);
    if (!provider) {
      provider = options.createProvider(spec);
      providers.set(spec, provider);
    }
    return provider;
  };

  return {
    capabilities,
    roots,
    approver,
    ...(serverLog ? { serverLog } : {}),
    configureClient(client, serverConfig) {
      const serverName = serverConfig.name;
      if (roots.declared) roots.attach(serverName, client);
      const onListChanged = options.onListChanged;
      if (onListChanged) {
        client.setNotificationHandler('notifications/resources/list_changed', () =>
          onListChanged(serverName, 'resources'),
        );
        client.setNotificationHandler('notifications/prompts/list_changed', () => onListChanged(serverName, 'prompts'));
      }
      if (options.forwarder) installForwardingHandlers(client, serverName, options.forwarder, record, bounded);
      else
        client.setRequestHandler(
          'sampling/createMessage',
          bounded(
            serverName,
            'sampling/createMessage',
            createSamplingHandler({
              serverName,
              approver,
              resolveProvider,
              settings: config.sampling,
              toolsDeclared: samplingTools,
              record,
            }),
            refusedSampling,
          ),
        );
      if ((form || url) && !options.forwarder) {
        client.setRequestHandler(
          'elicitation/create',
          bounded(
            serverName,
            'elicitation/create',
            createElicitationHandler({
              serverName,
              approver,
              openUrl,
              record,
              onDiagnostic: (message) => diagnostic(message),
            }),
            declined,
          ),
        );
        if (url) {
          client.setNotificationHandler('notifications/elicitation/complete', (notification) => {
            const id = notification.params.elicitationId;
            if (typeof id === 'string' && id.length <= 1_000) completions.complete(serverName, id);
            diagnostic(
              `server "${serverName}" says the URL elicitation ${showRaw(notification.params.elicitationId)} is complete`,
            );
          });
        }
      }
      const logGate = createLogRateGate((dropped) =>
        diagnostic(
          `server "${serverName}" sent log messages faster than ${LOG_MESSAGES_PER_SECOND} a second; dropped ${dropped.toLocaleString('en-US')} log messages`,
        ),
      );
      logGates.add(logGate);
      client.setNotificationHandler('notifications/resources/updated', (notification) => {
        const uri = notification.params.uri;
        if (typeof uri === 'string') options.onResourceUpdated?.({ server: serverName, uri: uri.slice(0, 4_000) });
      });
      client.setNotificationHandler('notifications/message', (notification) => {
        if (!logGate.admit()) return;
        const { level, logger, data } = notification.params;
        // A server's own words, written to a file and maybe the terminal: the known secrets are taken out first.
        const secrets = { secrets: options.audit?.secrets ?? config.secrets };
        const entry: ServerLogEntry = {
          server: serverName,
          time: new Date(),
          level,
          ...(logger !== undefined ? { logger: redactText(logger, secrets.secrets) } : {}),
          data: redactValues(data, secrets),
        };
        serverLog?.write(entry);
        options.onServerLog?.(entry, callOfStream(serverName));
      });
    },
    async askToOpenRequiredUrl(serverName, required, signal) {
      if (!url) return 'decline';
      const handlerOptions = { serverName, approver, openUrl, onDiagnostic: diagnostic, ...(record ? { record } : {}) };
      const answer = await askToOpenRequiredUrl(handlerOptions, required, signal);
      // A forwarding gateway does not see the notification: its downstream client does.
      if (answer !== 'accept' || options.forwarder) return answer;
      diagnostic(
        `server "${serverName}": waiting up to ${ELICITATION_COMPLETE_WAIT_MS / 1000} s for it to say the page opened for the call is done (notifications/elicitation/complete) before sending the call again`,
      );
      const waited = await completions.wait(serverName, required.elicitationId, ELICITATION_COMPLETE_WAIT_MS, signal);
      if (waited === 'cancelled') return 'cancel';
      if (waited === 'timeout') {
        diagnostic(`server "${serverName}" did not say the page is done; sending the call again anyway`);
      }
      return 'accept';
    },
    resourceTools(toolOptions) {
      const maxTokens = config.maxResultTokens ?? DEFAULT_RESULT_TOKEN_BUDGET;
      const budget: ResultBudget = options.budget ?? ((parts) => applyOutputBudget(parts, { maxTokens }).content);
      return createResourceHostTools({ ...toolOptions, budget });
    },
    async close() {
      for (const gate of logGates) gate.close();
      await serverLog?.flush();
    },
  };
}
