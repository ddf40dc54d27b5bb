/**
 * What the consent tests share: hosts on a fresh state folder that are always closed, an approver that records what
 * it was shown and answers as told, fixture server configs, a scripted model, and reading the audit log back from its
 * file.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AuditRecord } from '../../src/audit/audit-record.js';
import type { StdioServerConfig } from '../../src/config/types.js';
import { createHost, type Host, type HostOptions } from '../../src/host/create-host.js';
import type {
  Approver,
  DefinitionApprovalAnswer,
  DefinitionApprovalRequest,
  ServerApprovalRequest,
  ToolApprovalAnswer,
  ToolApprovalRequest,
} from '../../src/policy/approver.js';
import type { ModelRequest, ToolResult } from '../../src/providers/types.js';
import type { ScriptTurn } from '../../src/testing/script-types.js';
import { createScriptedProvider, type ScriptedProvider } from '../../src/testing/scripted-provider.js';
import { auditRecords } from '../helpers/audit-records.js';
import { bundledFixture } from '../helpers/bundled-fixture.js';
import { stdioServer } from '../helpers/configs.js';
import { repoRoot } from '../helpers/project.js';

export const toolSetServerPath = bundledFixture(join(repoRoot, 'test', 'fixtures', 'consent', 'tool-set-server.mjs'));
export const rugPullServerPath = bundledFixture(join(repoRoot, 'test', 'fixtures', 'consent', 'rug-pull-server.mjs'));
export const headerServerPath = bundledFixture(join(repoRoot, 'test', 'fixtures', 'consent', 'header-server.mjs'));

export interface ToolSpec {
  name: string;
  description?: string;
  annotations?: Record<string, boolean>;
  reply?: string;
  delayMs?: number;
  crash?: boolean;
}

/** A `tool-set-server.mjs` entry for a loaded config; `extraArgs` change its launch command. */
export function toolSetServer(
  name: string,
  tools: ToolSpec[],
  extra: Partial<StdioServerConfig> & { extraArgs?: string[] } = {},
): StdioServerConfig {
  const { extraArgs = [], env = {}, ...rest } = extra;
  return stdioServer(name, [toolSetServerPath, ...extraArgs], {
    env: { SERVER_LABEL: name, TOOLS: JSON.stringify(tools), ...env },
    ...rest,
  });
}

/** The same server as it would be written in a config file (`mcpServers.NAME`). */
export function toolSetServerEntry(
  tools: ToolSpec[],
  extra: { label?: string; args?: string[]; env?: Record<string, string>; trust?: 'trusted' | 'untrusted' } = {},
): Record<string, unknown> {
  return {
    command: process.execPath,
    args: [toolSetServerPath, ...(extra.args ?? [])],
    env: {
      TOOLS: JSON.stringify(tools),
      ...(extra.label === undefined ? {} : { SERVER_LABEL: extra.label }),
      ...extra.env,
    },
    ...(extra.trust === undefined ? {} : { trust: extra.trust }),
  };
}

/** A fresh state folder: its own trust store and audit log. */
export function freshStateDir(): string {
  return mkdtempSync(join(tmpdir(), 'mcp-host-consent-state-'));
}

const openHosts: Host[] = [];

/** A host on a fresh state folder (unless `options` names one); closed by {@link closeHosts}, called in afterEach. */
export async function openHost(options: HostOptions): Promise<Host> {
  const host = await createHost({ stateDir: freshStateDir(), ...options });
  openHosts.push(host);
  return host;
}

/** Closes every host {@link openHost} opened. */
export async function closeHosts(): Promise<void> {
  await Promise.all(openHosts.splice(0).map((host) => host.close()));
}

/** A scripted model playing `turns` for any prompt. */
export function scriptedModel(turns: ScriptTurn[]): ScriptedProvider {
  return createScriptedProvider({ scenarios: [{ turns }], fallbackText: 'out of script' });
}

/** Names of the tools offered in one model request. */
export function offeredTools(request: ModelRequest | undefined): string[] {
  return (request?.tools ?? []).map((tool) => tool.name);
}

/** The tool results the model received in a request, by call id. */
export function toolResultsIn(request: ModelRequest | undefined): Map<string, ToolResult> {
  const results = new Map<string, ToolResult>();
  for (const message of request?.messages ?? []) {
    if (message.role !== 'tool') continue;
    for (const result of message.results) results.set(result.callId, result);
  }
  return results;
}

export function resultText(result: ToolResult | undefined): string {
  return (result?.content ?? []).map((part) => (part.type === 'text' ? part.text : `[${part.mimeType}]`)).join('\n');
}

/** The audit log a host wrote, from its file. */
export function auditOf(host: Host): Promise<AuditRecord[]> {
  return auditRecords<AuditRecord>(host.stateDir);
}

export function recordsOfType<Type extends AuditRecord['type']>(
  records: readonly AuditRecord[],
  type: Type,
): Array<Extract<AuditRecord, { type: Type }>> {
  return records.filter((record): record is Extract<AuditRecord, { type: Type }> => record.type === type);
}

export interface RecordingApproverAnswers {
  toolCall?: (request: ToolApprovalRequest) => ToolApprovalAnswer;
  definition?: (request: DefinitionApprovalRequest) => DefinitionApprovalAnswer;
  server?: (request: ServerApprovalRequest) => DefinitionApprovalAnswer;
}

/**
 * An approver standing in for a person: it keeps every request it was shown and answers as the test says.
 * Without an answer for a kind of question it fails the run loudly, so a test notices a question it did not
 * expect to be asked.
 */
export class RecordingApprover implements Approver {
  readonly kind = 'recording';
  readonly toolCalls: ToolApprovalRequest[] = [];
  readonly definitions: DefinitionApprovalRequest[] = [];
  readonly servers: ServerApprovalRequest[] = [];

  constructor(private readonly answers: RecordingApproverAnswers = {}) {}

  async approveToolCall(request: ToolApprovalRequest): Promise<ToolApprovalAnswer> {
    this.toolCalls.push(structuredClone(request));
    if (!this.answers.toolCall) throw new Error(`unexpected approval question for the call of ${request.toolName}`);
    return this.answers.toolCall(request);
  }

  async approveToolDefinition(request: DefinitionApprovalRequest): Promise<DefinitionApprovalAnswer> {
    this.definitions.push(structuredClone(request));
    if (!this.answers.definition) throw new Error(`unexpected approval question for the tool ${request.toolName}`);
    return this.answers.definition(request);
  }

  async approveServer(request: ServerApprovalRequest): Promise<DefinitionApprovalAnswer> {
    this.servers.push(structuredClone(request));
    if (!this.answers.server) throw new Error(`unexpected approval question for the server ${request.serverName}`);
    return this.answers.server(request);
  }
}
