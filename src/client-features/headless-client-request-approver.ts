/**
 * The answers when no one can be asked (no terminal, a script, CI): sampling is denied unless the user allowed
 * it up front (`--allow-sampling`), and every elicitation is declined. A server never gets the host's model or
 * the user's data because no one was there to object.
 */
import type { ClientRequestApprover } from './client-request-approver.js';

export interface HeadlessClientRequestApproverOptions {
  /** Let servers use the host's model without asking. Default false. */
  allowSampling?: boolean;
}

export function createHeadlessClientRequestApprover(
  options: HeadlessClientRequestApproverOptions = {},
): ClientRequestApprover {
  return {
    kind: options.allowSampling ? 'allow-sampling' : 'headless',
    approveSampling: async () => (options.allowSampling ? 'allow' : 'deny'),
    elicitForm: async () => ({ action: 'decline' }),
    elicitUrl: async () => 'decline',
  };
}
