/** Consent, trust and pinning: the policy layer's public surface, for the loop, the host and the CLI. */

export { formatDefinitionApproval, formatServerApproval, formatToolCallApproval } from './approval-view.js';
export type { DefinitionApprovalRequest, ServerApprovalRequest, ToolApprovalRequest } from './approver.js';
export {
  type Approver,
  type DefinitionApprovalAnswer,
  ruleDenialMessage,
  type ToolApprovalAnswer,
  trustApproveCommand,
  USER_DENIED_MESSAGE,
  type WithholdReason,
} from './approver.js';
export {
  type Authorization,
  type AuthorizeToolCallOptions,
  authorizeToolCall,
  type DecidedBy,
  type ToolCallToAuthorize,
} from './authorize-tool-call.js';
export {
  decideToolCall,
  type PolicyAction,
  type PolicyDecision,
  type PolicySource,
  type ToolCallPolicyInput,
} from './decide-tool-call.js';
export { diffToolDefinitions } from './definition-diff.js';
export { globToRegExp, matchesGlob } from './glob.js';
export { createHeadlessApprover, headlessDenialMessage } from './headless-approver.js';
export {
  describeHiddenContent,
  findHiddenContent,
  type HiddenContentFlag,
  type HiddenContentKind,
  showRaw,
} from './hidden-content.js';
export {
  type PartitionInput,
  partitionTools,
  type ToolPartition,
  type ToolUnderReview,
  type WithheldTool,
} from './partition-tools.js';
export { checkRules, findMatchingRule, isCatchAllPattern, type RuleMatch } from './permission-rules.js';
export {
  crossReferenceNames,
  type ReviewServerToolsOptions,
  reviewServerTools,
  type ServerToolsReview,
  type TrustChange,
} from './review-server-tools.js';
export { allowRuleNames, restrictRuleNames, type ToolRuleNames } from './rule-names.js';
export { type RunApprovalScope, RunApprovals } from './run-approvals.js';
export { describeServerTarget, type ServerIdentity, serverIdentity } from './server-identity.js';
export { createTerminalApprover, type TerminalApprover, type TerminalApproverOptions } from './terminal-approver.js';
export {
  describeAnnotations,
  type EffectiveAnnotations,
  effectiveAnnotations,
  isSafeToRetry,
  type ToolAnnotations,
} from './tool-annotations.js';
export {
  fingerprintDefinition,
  type PinnableTool,
  snapshotToolDefinition,
  type ToolDefinitionSnapshot,
} from './tool-definition.js';
export { findHiddenContentInTool } from './tool-hidden-content.js';
export {
  buildTrustReport,
  formatTrustReport,
  type ToolAvailability,
  type TrustReportServer,
  type TrustReportServerInput,
  type TrustReportTool,
} from './trust-report.js';
export {
  type RememberedApprovals,
  type ServerCheck,
  type ToolCheck,
  type TrustedServerEntry,
  type TrustedToolEntry,
  TrustStore,
} from './trust-store.js';
export { type ApprovalOrigin, TRUST_STORE_FILE_NAME, TrustStoreError } from './trust-store-file.js';
export { createYesApprover, YES_MODE_NOTICE, type YesApproverOptions } from './yes-approver.js';
