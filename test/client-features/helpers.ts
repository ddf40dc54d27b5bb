/** Shared by the client-feature tests: the published servers' entry points, an approver that answers as told. */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type {
  ClientRequestApprover,
  FormElicitationAnswer,
  FormElicitationRequest,
  SamplingApprovalAnswer,
  SamplingApprovalRequest,
  UrlElicitationAnswer,
  UrlElicitationRequest,
} from '../../src/client-features/client-request-approver.js';
import type { HostOptions } from '../../src/host/create-host.js';
import { TrustStore } from '../../src/policy/trust-store.js';
import { createYesApprover } from '../../src/policy/yes-approver.js';
import type { ModelRequest, ToolResult } from '../../src/providers/types.js';
import { bundledFixture } from '../helpers/bundled-fixture.js';
import { temporaryDirectory } from '../helpers/project.js';

const require = createRequire(import.meta.url);

/** The `bin` script of an installed npm package, run with node. */
export function packageBin(packageName: string): string {
  const manifestPath = require.resolve(`${packageName}/package.json`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { bin: string | Record<string, string> };
  const bin = typeof manifest.bin === 'string' ? manifest.bin : Object.values(manifest.bin)[0];
  if (bin === undefined) throw new Error(`${packageName} has no bin`);
  return join(dirname(manifestPath), bin);
}

/** The client-requests fixture server, started from its bundle (less module loading per start). */
export function clientRequestsServer(): string {
  return bundledFixture(join(dirname(new URL(import.meta.url).pathname), 'fixtures', 'client-requests-server.mjs'));
}

/** Answers as the test sets `answers`, and remembers every question. */
export interface RecordingApprover extends ClientRequestApprover {
  answers: { sampling: SamplingApprovalAnswer; form: FormElicitationAnswer; url: UrlElicitationAnswer };
  sampling: SamplingApprovalRequest[];
  forms: FormElicitationRequest[];
  urls: UrlElicitationRequest[];
}

export function createRecordingApprover(): RecordingApprover {
  const approver: RecordingApprover = {
    kind: 'test',
    answers: { sampling: 'deny', form: { action: 'decline' }, url: 'decline' },
    sampling: [],
    forms: [],
    urls: [],
    approveSampling: async (request) => {
      approver.sampling.push(request);
      return approver.answers.sampling;
    },
    elicitForm: async (request) => {
      approver.forms.push(request);
      return approver.answers.form;
    },
    elicitUrl: async (request) => {
      approver.urls.push(request);
      return approver.answers.url;
    },
  };
  return approver;
}

/** The results of the most recent tool turn in a request the model received. */
export function lastToolResults(request: ModelRequest | undefined): ToolResult[] {
  const message = [...(request?.messages ?? [])].reverse().find((candidate) => candidate.role === 'tool');
  if (message?.role !== 'tool') throw new Error('the request holds no tool results');
  return message.results;
}

/** The text parts of a tool result, joined. */
export function textOf(result: ToolResult | undefined): string {
  return (result?.content ?? []).flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
}

/** Host options for a test that allows every call and keeps trust, audit and server logs to itself. */
export async function unattendedHostOptions(): Promise<HostOptions> {
  return {
    approver: createYesApprover(),
    trustStore: TrustStore.inMemory(),
    auditSink: false,
    stateDir: await temporaryDirectory('mcp-host-state-'),
    clientFeatures: { serverLogDirectory: false },
  };
}
