/**
 * `host.callTool()`: one tool called outside a run, by the user (`tools call`: deny rules apply, nothing asks), a
 * downstream MCP client through the gateway (decided as the host's own model's call would be), or an MCP App view
 * (decided as the model's, but it may reach the app's own tools). Each gets its own call id and audit run id.
 */
import { createRunId } from '../audit/audit-record.js';
import { NEVER_ABORTED } from '../connections/never-aborted.js';
import { exceedsJsonDepth, MAX_JSON_DEPTH } from '../json/json-depth.js';
import type { AgentEvent } from '../loop/events.js';
import type { ExecuteToolCall, ToolCallContext } from '../loop/tool-call-types.js';
import type { Host } from './host-types.js';

interface DirectCallExecutors {
  runId: string;
  forUser: ExecuteToolCall;
  forModel: ExecuteToolCall;
  forApp: ExecuteToolCall;
}

/**
 * Arguments nested too deep to write out (`JSON.stringify` would overflow the stack on a client's 10,000 levels):
 * text that the argument check refuses for its depth, as it refuses the model's, so the call is answered and audited.
 */
const TOO_DEEP_ARGUMENTS_TEXT = '['.repeat(MAX_JSON_DEPTH + 1);

export function createDirectCall(executors: DirectCallExecutors): Host['callTool'] {
  return (name, args, callOptions = {}) => {
    const kind = callOptions.origin === 'app' ? 'app' : callOptions.client ? 'client' : 'direct';
    const context: ToolCallContext = {
      runId: `${executors.runId}-${kind}`,
      turn: 0,
      callsInTurn: 1,
      signal: callOptions.signal ?? NEVER_ABORTED,
      emit: warningsTo(callOptions.onWarning, kind === 'client'),
      ...(callOptions.client ? { client: callOptions.client } : {}),
      ...(callOptions.origin ? { origin: callOptions.origin } : {}),
      ...(callOptions.onProgress ? { onProgress: callOptions.onProgress } : {}),
    };
    const execute = kind === 'app' ? executors.forApp : kind === 'client' ? executors.forModel : executors.forUser;
    return execute(
      {
        type: 'tool-call',
        id: `${kind}-${createRunId()}`,
        name,
        argumentsText: exceedsJsonDepth(args) ? TOO_DEEP_ARGUMENTS_TEXT : JSON.stringify(args),
      },
      context,
    );
  };
}

/**
 * A direct call has no run to report to: of its events only the warnings are its caller's to hear. A downstream
 * client's (`sentOnly`) are those of the call once sent to its server (sent again after the server went away, say):
 * what the policy warns of before (a tool that may reach outside systems) is for whoever lets the call run, the
 * client's user in the approval question it is asked, or the person who wrote the rule that allowed it.
 */
function warningsTo(
  onWarning: ((message: string) => void) | undefined,
  sentOnly: boolean,
): (event: AgentEvent) => void {
  if (onWarning === undefined) return () => undefined;
  let sent = !sentOnly;
  return (event) => {
    if (event.type === 'tool-call-request') sent = true;
    else if (event.type === 'tool-call-warning' && sent) onWarning(event.message);
  };
}
