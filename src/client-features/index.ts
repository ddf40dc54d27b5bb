/**
 * What the host offers MCP servers beyond tools — roots, sampling, elicitation, logging — and the host's access to
 * their resources and prompts: the client-features layer's public surface, for the host and the CLI.
 */

export { createLinePrompter, type LinePrompter, type LinePrompterOptions } from '../policy/line-prompter.js';
export { chooseSamplingModel } from './choose-sampling-model.js';
export {
  type ClientFeatures,
  type ClientFeaturesOptions,
  createClientFeatures,
} from './client-features.js';
export type {
  ClientRequestApprover,
  ElicitationContent,
  FormElicitationAnswer,
  FormElicitationRequest,
  SamplingApprovalAnswer,
  SamplingApprovalRequest,
  UrlElicitationAnswer,
  UrlElicitationRequest,
} from './client-request-approver.js';
export {
  auditClientRequests,
  type ClientRequestMethod,
  type ClientRequestRecord,
  type ClientRequestRecorder,
  toAuditRecord,
} from './client-request-audit.js';
export {
  formatFieldQuestion,
  formatFormIntro,
  formatSamplingApproval,
  formatUrlElicitation,
  type HostnameMark,
  PLAIN_HOSTNAME_MARK,
  TERMINAL_HOSTNAME_MARK,
} from './client-request-views.js';
export { type DescribedUrl, describeUrl, highlightHostname } from './describe-url.js';
export {
  type FieldAnswer,
  type FieldValue,
  type FormChoice,
  type FormField,
  formFields,
  parseFieldAnswer,
} from './elicitation-form-fields.js';
export { createElicitationHandler, type ElicitationHandlerOptions } from './handle-elicitation-request.js';
export {
  createSamplingHandler,
  SAMPLING_REJECTED_CODE,
  SAMPLING_REJECTED_MESSAGE,
  type SamplingHandlerOptions,
} from './handle-sampling-request.js';
export {
  createHeadlessClientRequestApprover,
  type HeadlessClientRequestApproverOptions,
} from './headless-client-request-approver.js';
export { browserCommand, createSystemUrlOpener, type UrlOpener } from './open-url.js';
export {
  createResourceHostTools,
  defaultResultBudget,
  LIST_RESOURCES_TOOL,
  READ_RESOURCE_TOOL,
  type ResourceHostTools,
  type ResourceHostToolsOptions,
  type ResultBudget,
} from './resource-host-tools.js';
export { RootsRegistry, resolveRoots } from './roots-registry.js';
export {
  createServerFeatureAccess,
  type HostPrompts,
  type HostResources,
  type HostRoots,
  type ServerFeatureAccess,
} from './server-feature-access.js';
export {
  createServerLog,
  formatServerLogLine,
  MAX_SERVER_LOG_BYTES,
  type ServerLog,
  type ServerLogEntry,
} from './server-log.js';
export {
  findPromptServer,
  getServerPrompt,
  listServerPrompts,
  offersPrompts,
  PromptChoiceError,
  type PromptReference,
  parsePromptReference,
  promptToMessages,
  type ServerPrompts,
} from './server-prompts.js';
export {
  blobAsText,
  describeServerResources,
  listServerResources,
  offersResources,
  readServerResource,
  resourceContentsToParts,
  type ServerResources,
} from './server-resources.js';
export {
  createTerminalClientFeatures,
  formatProgress,
  type TerminalClientFeatures,
  type TerminalClientFeaturesOptions,
  type ToolProgressUpdate,
} from './terminal-client-features.js';
export {
  createTerminalClientRequestApprover,
  type TerminalClientRequestApproverOptions,
} from './terminal-client-request-approver.js';
export { modelResponseToSamplingResult, samplingToModelRequest, samplingUsesTools } from './translate-sampling.js';
