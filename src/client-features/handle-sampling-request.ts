/**
 * Answers a server's `sampling/createMessage` with the host's model, only with consent: the approver is shown
 * which server asks and the full prompt, and may deny (with no one to ask, the headless approver denies unless
 * sampling was allowed up front). Tools inside sampling are accepted only when the host declared that
 * capability. Every request is recorded like a tool call.
 */
import {
  type ClientContext,
  type CreateMessageRequest,
  type CreateMessageResult,
  type CreateMessageResultWithTools,
  ProtocolError,
  ProtocolErrorCode,
} from '@modelcontextprotocol/client';
import type { SamplingSettings } from '../config/types.js';
import { callOfRequest } from '../connections/call-streams.js';
import { exceedsJsonDepth, JsonTooDeepError } from '../json/json-depth.js';
import type { LlmProvider } from '../providers/types.js';
import { chooseSamplingModel } from './choose-sampling-model.js';
import type { ClientRequestApprover, SamplingApprovalRequest } from './client-request-approver.js';
import {
  byteLength,
  type ClientRequestRecord,
  type ClientRequestRecorder,
  withoutBinaryData,
} from './client-request-audit.js';
import { modelResponseToSamplingResult, samplingToModelRequest, samplingUsesTools } from './translate-sampling.js';

/** The JSON-RPC error code the MCP specification shows for a sampling request the user rejected. */
const SAMPLING_REJECTED_CODE = -1;
const SAMPLING_REJECTED_MESSAGE = 'User rejected sampling request';

interface SamplingHandlerOptions {
  serverName: string;
  approver: ClientRequestApprover;
  /** The provider for a `provider:model` from the config, or the host's own model for undefined. */
  resolveProvider: (spec: string | undefined) => Promise<LlmProvider>;
  settings?: SamplingSettings;
  /** Whether the host declared `sampling.tools`. */
  toolsDeclared: boolean;
  record?: ClientRequestRecorder;
}

type SamplingHandler = (
  request: CreateMessageRequest,
  context: ClientContext,
) => Promise<CreateMessageResult | CreateMessageResultWithTools>;

export function createSamplingHandler(options: SamplingHandlerOptions): SamplingHandler {
  return async (request, context) => {
    // Refused before any walk over it (summary, audit, translation) could overflow the stack.
    if (exceedsJsonDepth(request.params)) throw new JsonTooDeepError('the sampling request');
    const params = request.params;
    // Told as the request arrives, in the context it was read in.
    const call = callOfRequest(options.serverName);
    const signal = context.mcpReq.signal;
    const startedAt = new Date();
    const started = performance.now();
    const usesTools = samplingUsesTools(params);
    const summary = {
      systemPrompt: params.systemPrompt,
      messages: withoutBinaryData(params.messages),
      // Not `maxTokens`: the audit log redacts every key that mentions tokens.
      maxOutput: params.maxTokens,
      ...(params.tools ? { tools: params.tools.map((tool) => tool.name) } : {}),
    };
    const record = async (
      fields: Omit<ClientRequestRecord, 'server' | 'method' | 'request' | 'startedAt' | 'durationMs'>,
    ) => {
      await options.record?.({
        server: options.serverName,
        method: 'sampling/createMessage',
        request: summary,
        startedAt,
        durationMs: Math.round(performance.now() - started),
        ...fields,
      });
    };

    if (usesTools && !options.toolsDeclared) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        'This client did not declare tool use in sampling (capability sampling.tools); send the request without tools or toolChoice.',
      );
    }

    const hints = (params.modelPreferences?.hints ?? []).flatMap((hint) => (hint.name ? [hint.name] : []));
    let provider: LlmProvider;
    try {
      provider = await options.resolveProvider(chooseSamplingModel(options.settings, options.serverName, hints));
    } catch (error) {
      const message = `The host has no model to answer sampling requests: ${messageOf(error)}`;
      await record({ answer: 'deny', approver: 'host', reason: message, outcome: 'error', error: message });
      throw new ProtocolError(ProtocolErrorCode.InternalError, message);
    }

    const approval: SamplingApprovalRequest = {
      serverName: options.serverName,
      model: `${provider.provider}:${provider.model}`,
      ...(params.systemPrompt !== undefined ? { systemPrompt: params.systemPrompt } : {}),
      messages: params.messages,
      maxTokens: params.maxTokens,
      tools: (params.tools ?? []).map((tool) => ({ name: tool.name, description: tool.description })),
      notApplied: notApplied(params),
      modelHints: hints,
      ...(call === undefined ? {} : { call }),
    };
    const answer = await options.approver.approveSampling(approval, signal);
    if (answer !== 'allow') {
      await record({
        answer: 'deny',
        approver: options.approver.kind,
        reason: `The ${options.approver.kind} approver denied server "${options.serverName}" the use of the model.`,
        outcome: 'denied',
      });
      throw new ProtocolError(SAMPLING_REJECTED_CODE, SAMPLING_REJECTED_MESSAGE);
    }

    try {
      const response = await provider.generate(samplingToModelRequest(params), { signal, stream: false });
      const result = modelResponseToSamplingResult(response, provider, usesTools);
      await record({
        answer: 'allow',
        approver: options.approver.kind,
        reason: `The ${options.approver.kind} approver allowed server "${options.serverName}" the use of the model.`,
        outcome: 'ok',
        model: approval.model,
        resultBytes: byteLength(result),
      });
      return result;
    } catch (error) {
      const message = `The host's model (${approval.model}) failed to answer: ${messageOf(error)}`;
      await record({
        answer: 'allow',
        approver: options.approver.kind,
        reason: message,
        outcome: signal.aborted ? 'cancelled' : 'error',
        model: approval.model,
        error: message,
      });
      throw new ProtocolError(ProtocolErrorCode.InternalError, message);
    }
  };
}

/** What the server asked for that the host does not pass to the model, so the user is not misled. */
function notApplied(params: CreateMessageRequest['params']): string[] {
  const items: string[] = [];
  if (params.includeContext !== undefined && params.includeContext !== 'none') {
    items.push(`includeContext "${params.includeContext}" (no other context is added)`);
  }
  if (params.temperature !== undefined) items.push(`temperature ${params.temperature}`);
  if (params.stopSequences !== undefined && params.stopSequences.length > 0) items.push('stop sequences');
  return items;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
