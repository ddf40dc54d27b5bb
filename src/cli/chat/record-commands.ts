/** The records beside the conversation: `/trust`, `/audit`, and `/remember TEXT` (the project memory). */
import { resolveAuditLogPath } from '../../audit/audit-log-path.js';
import { formatAuditTable } from '../../audit/format-audit-record.js';
import { readAuditLog } from '../../audit/read-audit-log.js';
import { buildTrustReport, formatTrustReport } from '../../policy/trust-report.js';
import { TrustStore } from '../../policy/trust-store.js';
import { addMemory, memoryFile } from '../../skills/project-memory.js';
import { ChatCommandError, type SlashCommand } from './slash-command.js';

/** Records of this chat shown by `/audit`, newest last. */
const AUDIT_ROWS = 20;

export const trustCommand: SlashCommand = {
  name: 'trust',
  summary: "each server's trust and its tools' approvals (change them with mcp-host trust)",
  async run({ host, output }) {
    // Opened as the host opens it: approvals are kept per config file.
    const store = TrustStore.inStateDir(host.stateDir, { scope: host.config.file ?? '' });
    store.useConfiguredServers(host.config.servers);
    const entries = host.catalog().entries;
    const report = buildTrustReport(
      store,
      host.config.servers.map((config) => ({
        config,
        tools: entries
          .filter((entry) => entry.server === config.name)
          .map((entry) => ({ name: entry.name, tool: entry.tool })),
      })),
      { approvals: host.approvals },
    );
    output.write(formatTrustReport(report));
  },
};

export const auditCommand: SlashCommand = {
  name: 'audit',
  summary: `the last ${AUDIT_ROWS} audit records of this chat (every call, approval and cancellation)`,
  async run({ host, output }) {
    const file = resolveAuditLogPath({ flag: host.config.auditFile, stateDir: host.stateDir, cwd: process.cwd() });
    const { records: mine } = await readAuditLog(file, { runId: host.runId }, { keepLast: AUDIT_ROWS });
    if (mine.length === 0) output.line(`No records of this chat yet in ${file}.`);
    else output.write(formatAuditTable(mine));
  },
};

export const rememberCommand: SlashCommand = {
  name: 'remember',
  usage: 'TEXT',
  summary: 'add TEXT to the project memory (loaded into the system prompt of later runs)',
  async run({ host, output }, argument) {
    let entry: string;
    try {
      entry = addMemory(host.projectFolder, argument.trim());
    } catch (error) {
      throw new ChatCommandError(error instanceof Error ? error.message : String(error));
    }
    output.line(`Remembered in ${memoryFile(host.projectFolder)}: ${entry}`);
  },
};
