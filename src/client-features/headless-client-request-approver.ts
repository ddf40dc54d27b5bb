/**
 * The answers when no one can be asked (no terminal, a script, CI): sampling is denied unless the user allowed
 * it up front (`--allow-sampling`), and every elicitation is declined. A server never gets the host's model or
 * the user's data because no one was there to object.
 */
import type { ClientRequestApprover } from './client-request-approver.js';

interface HeadlessClientRequestApproverOptions {
  /** Let servers use the host's model without asking. Default false. */
  allowSampling?: boolean;
  /** Told what was declined (one sentence), so a command line can say it on stderr instead of declining silently. */
  onDecline?: (what: string) => void;
}

export function createHeadlessClientRequestApprover(
  options: HeadlessClientRequestApproverOptions = {},
): ClientRequestApprover {
  const said = (what: string): void => options.onDecline?.(`${what}: there is no terminal to ask`);
  return {
    kind: options.allowSampling ? 'allow-sampling' : 'headless',
    approveSampling: async (request) => {
      if (options.allowSampling) return 'allow';
      said(
        `declined the server "${request.serverName}"'s request to use the model (sampling; --allow-sampling allows it)`,
      );
      return 'deny';
    },
    elicitForm: async (request) => {
      said(
        `declined the server "${request.serverName}"'s request for input ${JSON.stringify(request.message.slice(0, 120))}`,
      );
      return { action: 'decline' };
    },
    elicitUrl: async (request) => {
      const where = request.url.hostname ?? request.url.original.slice(0, 120);
      said(`declined the server "${request.serverName}"'s request to open a page on ${where}`);
      return 'decline';
    },
  };
}
