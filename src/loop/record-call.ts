/**
 * The audit step of a call: one record per call, written before its result goes back to the model, with the
 * arguments and any error text redacted of the run's secrets.
 */
import type { ToolCallOutcome } from '../audit/audit-record.js';
import type { AuditRecorder, ToolCallAuditInput } from '../audit/audit-recorder.js';
import { redactArguments, redactArgumentText, redactText } from '../audit/redact.js';
import type { HostConfig, ServerTrust } from '../config/types.js';
import type { Authorization, ToolCallToAuthorize } from '../policy/authorize-tool-call.js';
import { callToAuthorize, trustOf } from '../policy/catalog-call.js';
import type { CallRecord } from './execute-tool-call.js';

interface RecordCallSettings {
  config: HostConfig;
  audit: () => AuditRecorder;
  /** Redacted from the record (default: the config's); read at each call, as the run adds to it. */
  secrets?: readonly string[];
}

export function createRecordCall(settings: RecordCallSettings): (record: CallRecord) => Promise<void> {
  const { config } = settings;
  const secrets = settings.secrets ?? config.secrets;
  return async (record) => {
    const entry = record.entry;
    const call: ToolCallToAuthorize = entry
      ? callToAuthorize(entry, record.arguments ?? record.call.argumentsText, record.call.id)
      : {
          callId: record.call.id,
          toolName: record.call.name,
          serverName: '',
          originalToolName: record.call.name,
          arguments: record.call.argumentsText,
        };
    // Raw text (an unknown tool, arguments that did not parse) has no keys to go by: its secret-named values are
    // found in the text itself.
    call.arguments =
      typeof call.arguments === 'string'
        ? redactArgumentText(call.arguments, secrets)
        : redactArguments(call.arguments, { secrets });
    const authorization =
      record.authorization ??
      notRunAuthorization(
        record.error ?? 'not run: the call could not be routed or its arguments did not parse',
        entry ? trustOf(config, entry) : undefined,
      );
    const outcome: ToolCallOutcome = record.outcome === 'invalid' ? 'error' : record.outcome;
    const ran = record.outcome !== 'denied' && record.outcome !== 'invalid';
    const { client, origin } = record.context;
    // Key by key rather than with spreads in between: on Node 20 those cost microseconds a call.
    const input: ToolCallAuditInput = { call, authorization, outcome };
    if (ran) {
      input.startedAt = record.startedAt;
      input.durationMs = record.durationMs;
    }
    if (record.shaped.resultBytes !== undefined) input.resultBytes = record.shaped.resultBytes;
    if (record.shaped.cut !== undefined) input.truncated = record.shaped.cut;
    if (record.error !== undefined) input.error = redactText(record.error, secrets);
    if (client !== undefined) input.client = client;
    if (origin !== undefined) input.origin = origin;
    await settings.audit().toolCall(input);
  };
}

/** Not authorized by the policy (an unknown tool, invalid arguments): the record says it never ran. */
function notRunAuthorization(reason: string, trust: ServerTrust | undefined): Authorization {
  return {
    allowed: false,
    ...(trust === undefined ? {} : { trust }),
    decision: { action: 'deny', reason, source: 'default', warnings: [], safeToRetry: false },
    decidedBy: 'default',
    reason,
    warnings: [],
    hiddenContent: [],
  };
}
