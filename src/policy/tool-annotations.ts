/**
 * MCP tool annotations as the policy reads them. The specification calls them hints, gives each a default for a
 * tool that says nothing, and warns that hints from an untrusted server must not drive decisions. So this module
 * applies the defaults in one place, and applies them only for a trusted server: for an untrusted one every hint
 * falls back to the cautious default whatever the server declared.
 */

import type { ServerTrust } from '../config/types.js';

/** The annotation fields the host reads; an MCP SDK `Tool['annotations']` fits. */
export interface ToolAnnotations {
  title?: string;
  /** Default false: the tool may change its environment. */
  readOnlyHint?: boolean;
  /** Default true; meaningful only when the tool is not read-only. */
  destructiveHint?: boolean;
  /** Default false: repeating a call may have further effect. */
  idempotentHint?: boolean;
  /** Default true: the tool may reach systems outside the host's control (the web, other services). */
  openWorldHint?: boolean;
}

interface EffectiveAnnotations {
  readOnly: boolean;
  destructive: boolean;
  idempotent: boolean;
  openWorld: boolean;
  /** False when the server is untrusted: the values above are the cautious defaults, not what the tool said. */
  fromServer: boolean;
}

/** The defaults the MCP specification gives a tool without annotations. */
const SPECIFICATION_DEFAULTS = {
  readOnly: false,
  destructive: true,
  idempotent: false,
  openWorld: true,
} as const;

export function effectiveAnnotations(
  annotations: ToolAnnotations | undefined,
  trust: ServerTrust,
): EffectiveAnnotations {
  if (trust !== 'trusted') return { ...SPECIFICATION_DEFAULTS, fromServer: false };
  const readOnly = annotations?.readOnlyHint ?? SPECIFICATION_DEFAULTS.readOnly;
  return {
    readOnly,
    // A read-only tool cannot be destructive; the specification says destructiveHint only matters otherwise.
    destructive: readOnly ? false : (annotations?.destructiveHint ?? SPECIFICATION_DEFAULTS.destructive),
    idempotent: annotations?.idempotentHint ?? SPECIFICATION_DEFAULTS.idempotent,
    openWorld: annotations?.openWorldHint ?? SPECIFICATION_DEFAULTS.openWorld,
    fromServer: true,
  };
}

/**
 * Whether a call that timed out may be sent once more. Only a trusted server's word counts, and only a tool that
 * says repeating it has no further effect (idempotent) or that it changes nothing (read-only). A call that is not
 * safe to retry is never replayed.
 */
export function isSafeToRetry(annotations: ToolAnnotations | undefined, trust: ServerTrust): boolean {
  const effective = effectiveAnnotations(annotations, trust);
  return effective.fromServer && (effective.readOnly || effective.idempotent);
}

/** `readOnlyHint: true, destructiveHint: (unset)` — for approval views and messages. */
export function describeAnnotations(annotations: ToolAnnotations | undefined): string {
  const keys = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;
  const declared = keys.filter((key) => annotations?.[key] !== undefined);
  if (declared.length === 0) return 'none declared';
  return declared.map((key) => `${key}: ${String(annotations?.[key])}`).join(', ');
}
