/**
 * Who answers consent questions on the command line: `--yes` approves calls not denied by a rule;
 * a terminal asks the user; anything else (a pipe, CI) is headless and denies what needs asking.
 */

import type { Approver } from '../policy/approver.js';
import { createHeadlessApprover } from '../policy/headless-approver.js';
import type { LinePrompter } from '../policy/line-prompter.js';
import { createTerminalApprover } from '../policy/terminal-approver.js';
import { createYesApprover, YES_MODE_NOTICE } from '../policy/yes-approver.js';
import { writeError } from './output.js';

export function chooseApprover(options: { yes?: boolean }, prompter?: LinePrompter): Approver {
  if (options.yes) {
    writeError(`mcp-host: ${YES_MODE_NOTICE}`);
    return createYesApprover({ onNotice: (message) => writeError(`mcp-host: ${message}`) });
  }
  if (process.stdin.isTTY) return createTerminalApprover({ input: process.stdin, output: process.stderr, prompter });
  return createHeadlessApprover();
}
