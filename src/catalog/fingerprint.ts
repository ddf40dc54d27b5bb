/**
 * A tool's fingerprint: what the user approved, reduced to a hash. When a server later changes a tool's
 * description, schemas or annotations (a "rug pull"), the fingerprint changes and the pinned approval no longer
 * applies. Only the fields that shape what the model is told or what the host decides are included; `_meta` and
 * other bookkeeping are not, so they can change without re-approval.
 */

import { createHash } from 'node:crypto';
import { stableStringify } from './stable-json.js';

interface FingerprintedToolFields {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: unknown;
  outputSchema?: unknown;
  annotations?: unknown;
}

/** SHA-256 (lowercase hex) of the key-sorted JSON of exactly the fields above; absent fields are left out. */
export function fingerprintTool(tool: FingerprintedToolFields): string {
  const fields = {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema,
    outputSchema: tool.outputSchema,
    annotations: tool.annotations,
  };
  return createHash('sha256').update(stableStringify(fields)).digest('hex');
}
