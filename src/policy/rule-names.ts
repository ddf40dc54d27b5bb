/**
 * Every name a permission rule is matched against for one tool. The namespaced name the model sees can differ from
 * what the user knows the tool by: a long name is truncated and hashed, an odd server name sanitised. So rules
 * also match `server__tool` as the config names the server and the server names the tool, and deny and ask rules
 * match the tool's own name alone (`"delete_everything"` stops that tool on every server).
 *
 * Allow rules do not match the tool's own name alone: the server chooses it, and an untrusted server naming its
 * tool `fs__write_file` must not inherit an allow rule written for the server `fs`. Matching more names can only
 * make deny and ask stricter, never make allow wider than the user wrote.
 */

import { TOOL_NAME_SEPARATOR } from '../catalog/tool-naming.js';

export interface ToolRuleNames {
  /** The namespaced name the model sees (`fs__read_file`, or a truncated, hashed one). */
  toolName: string;
  serverName: string;
  /** The server's own name for the tool; absent for a name that routes nowhere. */
  originalToolName?: string;
}

/** The names allow rules match: the namespaced one and `server__tool` as configured and listed. */
export function allowRuleNames(tool: ToolRuleNames): string[] {
  const names = [tool.toolName];
  if (tool.originalToolName !== undefined && tool.serverName !== '') {
    names.push(`${tool.serverName}${TOOL_NAME_SEPARATOR}${tool.originalToolName}`);
  }
  return unique(names);
}

/** The names deny and ask rules match: the allow names plus the tool's own name alone. */
export function restrictRuleNames(tool: ToolRuleNames): string[] {
  const names = allowRuleNames(tool);
  if (tool.originalToolName !== undefined) names.push(tool.originalToolName);
  return unique(names);
}

function unique(names: string[]): string[] {
  return [...new Set(names)];
}
