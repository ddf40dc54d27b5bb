/**
 * The host's own access to servers' resources, prompts and the roots it offers them — what `mcp-host resources`,
 * `mcp-host prompts` and `run --prompt` use, without a model in between.
 */
import type { GetPromptResult, ReadResourceResult, Root } from '@modelcontextprotocol/client';
import type { ServerConnection } from '../connections/server-connection.js';
import type { Message, UserPart } from '../providers/types.js';
import { completeTemplateArgument } from './complete-argument.js';
import type { ResultBudget } from './resource-host-tools.js';
import type { RootsRegistry } from './roots-registry.js';
import { resolveRoots } from './roots-registry.js';
import {
  budgetPromptParts,
  findPromptServer,
  getServerPrompt,
  listServerPrompts,
  offersPrompts,
  type PromptReference,
  parsePromptReference,
  promptToMessages,
  type ServerPrompts,
} from './server-prompts.js';
import {
  listServerResources,
  offersResources,
  readServerResource,
  type ServerResources,
  subscribeServerResource,
} from './server-resources.js';

interface HostResources {
  /** Every server that offers resources, with its resources and URI templates. */
  list(): Promise<ServerResources[]>;
  read(server: string, uri: string): Promise<ReadResourceResult>;
  /** `resources/subscribe`: changes then arrive through `HostOptions.onResourceUpdated`. */
  subscribe(server: string, uri: string): Promise<void>;
  unsubscribe(server: string, uri: string): Promise<void>;
  /** Values the server suggests for a template's variable (`completion/complete`); none when it offers none. */
  complete(
    server: string,
    uriTemplate: string,
    argument: { name: string; value: string },
    given?: Record<string, string>,
  ): Promise<string[]>;
}

interface HostPrompts {
  /** Every server that offers prompts, with its prompts. */
  list(): Promise<ServerPrompts[]>;
  /** `server:NAME`, or `NAME` when only one server has it. */
  get(
    reference: string | PromptReference,
    args?: Record<string, string>,
  ): Promise<{ server: string; name: string; result: GetPromptResult }>;
  /** The prompt's messages as the opening messages of a run, cut as a whole to the output budget of one result. */
  messages(reference: string | PromptReference, args?: Record<string, string>): Promise<Message[]>;
  /**
   * The prompt as `get` answers it, with its messages' parts as a model is given them cut as `messages` cuts them
   * (`parts[i]` are those of `result.messages[i]`), and that budget in estimated tokens: what a gateway passes on.
   */
  budgeted(reference: string | PromptReference, args?: Record<string, string>): Promise<BudgetedPrompt>;
}

export interface BudgetedPrompt {
  server: string;
  name: string;
  result: GetPromptResult;
  parts: UserPart[][];
  maxTokens: number;
}

interface HostRoots {
  list(): Root[];
  /** Replaces the roots (paths resolved against the host's folder, or `file://` URIs) and tells every server. */
  set(roots: readonly string[]): Promise<void>;
}

export interface ServerFeatureAccess {
  resources: HostResources;
  prompts: HostPrompts;
  roots: HostRoots;
}

export function createServerFeatureAccess(options: {
  connections: () => ServerConnection[];
  roots: RootsRegistry;
  cwd: string;
  /** What a prompt puts into a run is fitted into this, as one tool result (see stored-result-budget.ts). */
  budget: ResultBudget;
  /** The most estimated tokens `budget` lets one result have. */
  maxTokensPerResult: number;
  onDiagnostic?: (message: string) => void;
}): ServerFeatureAccess {
  const connected = (name: string): ServerConnection => {
    const connection = options.connections().find((candidate) => candidate.name === name);
    if (!connection) {
      const names = options
        .connections()
        .map((candidate) => candidate.name)
        .join(', ');
      throw new Error(`no connected server is named "${name}" (servers: ${names || 'none'})`);
    }
    return connection;
  };
  const getPrompt = async (reference: string | PromptReference, args: Record<string, string> = {}) => {
    const parsed = typeof reference === 'string' ? parsePromptReference(reference) : reference;
    const connection = await findPromptServer(parsed, options.connections());
    return { server: connection.name, name: parsed.name, result: await getServerPrompt(connection, parsed.name, args) };
  };
  return {
    resources: {
      list: () => Promise.all(options.connections().filter(offersResources).map(listServerResources)),
      read: (server, uri) => readServerResource(connected(server), uri),
      subscribe: (server, uri) => subscribeServerResource(connected(server), uri, true),
      unsubscribe: (server, uri) => subscribeServerResource(connected(server), uri, false),
      complete: (server, uriTemplate, argument, given) =>
        completeTemplateArgument(connected(server), uriTemplate, argument, given),
    },
    prompts: {
      list: () => Promise.all(options.connections().filter(offersPrompts).map(listServerPrompts)),
      get: getPrompt,
      messages: async (reference, args) => promptToMessages((await getPrompt(reference, args)).result, options.budget),
      budgeted: async (reference, args) => {
        const found = await getPrompt(reference, args);
        const parts = await budgetPromptParts(found.result, options.budget);
        return { ...found, parts, maxTokens: options.maxTokensPerResult };
      },
    },
    roots: {
      list: () => options.roots.list(),
      set: (roots) =>
        options.roots.set(resolveRoots(roots, options.cwd), (server, error) =>
          options.onDiagnostic?.(
            `server "${server}" could not be told that the roots changed: ${error instanceof Error ? error.message : String(error)}`,
          ),
        ),
    },
  };
}
