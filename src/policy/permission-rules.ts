/**
 * The user's own rules (`permissions.allow / ask / deny` in the config), matched against namespaced tool names and
 * the names the user knows a tool by (see rule-names.ts).
 * Deny beats ask beats allow, whatever the order the patterns were written in, so adding a deny rule can never be
 * undone by a broader allow rule. Patterns that can never match are reported when the tools are known: a rule
 * that silently matches nothing is a rule the user believes protects them and does not.
 */

import { sanitiseName, TOOL_NAME_SEPARATOR } from '../catalog/tool-naming.js';
import type { PermissionRules } from '../config/types.js';
import { literalPartOf, matchesGlob } from './glob.js';
import { mayNameToolOf } from './pattern-servers.js';
import { allowRuleNames, restrictRuleNames, type ToolRuleNames } from './rule-names.js';

type RuleList = keyof PermissionRules;

/** Strongest first: the first list with a matching pattern decides. */
const RULE_PRECEDENCE: readonly RuleList[] = ['deny', 'ask', 'allow'];

interface RuleMatch {
  list: RuleList;
  pattern: string;
}

/**
 * The deciding rule for a tool, or undefined when no pattern matches it. Given only a namespaced name (a string),
 * rules match that name alone.
 */
export function findMatchingRule(rules: PermissionRules, tool: string | ToolRuleNames): RuleMatch | undefined {
  const named = typeof tool === 'string' ? { toolName: tool, serverName: '' } : tool;
  for (const list of RULE_PRECEDENCE) {
    // Most configs have empty lists: their names are not worth building on every call.
    if (rules[list].length === 0) continue;
    const names = namesFor(list, named);
    const pattern = rules[list].find((candidate) => names.some((name) => matchesGlob(candidate, name)));
    if (pattern !== undefined) return { list, pattern };
  }
  return undefined;
}

function namesFor(list: RuleList, tool: ToolRuleNames): string[] {
  return list === 'allow' ? allowRuleNames(tool) : restrictRuleNames(tool);
}

/**
 * Whether a pattern matches every tool of every server: it pins down nothing but, at most, the `__` between server
 * and tool (`*`, `**`, `*__*`, `?*`).
 */
export function isCatchAllPattern(pattern: string): boolean {
  const literal = literalPartOf(pattern);
  return pattern.includes('*') && (literal === '' || literal === '__');
}

/**
 * One warning per pattern that matches none of `tools` (every tool the host knows, by namespaced name or by all
 * its names),
 * and one per catch-all pattern in `allow`. Call it once the catalog is built (and again after a refresh if
 * you like); a server that failed to start makes its patterns look unmatched, which is worth saying too. A server
 * the command chose not to start (`serversNotStarted`: `--server`, `tools call`) is another matter: a pattern that
 * may name one of its tools is not reported, as nothing is known of them. `servers` names every configured server
 * (sanitised), so that one which lists no tools is still known as the owner of the names it begins.
 */
export function checkRules(
  rules: PermissionRules,
  tools: ReadonlyArray<string | ToolRuleNames>,
  options: { serversNotStarted?: readonly string[]; servers?: readonly string[] } = {},
): string[] {
  const named = tools.map((tool) => (typeof tool === 'string' ? { toolName: tool, serverName: '' } : tool));
  const notStarted = options.serversNotStarted ?? [];
  // Every server a name may belong to: a started server that lists no tools still owns the names it begins.
  const servers = [
    ...notStarted,
    ...(options.servers ?? []),
    ...named.filter((tool) => tool.serverName !== '').map((tool) => sanitiseName(tool.serverName)),
  ];
  const warnings: string[] = [];
  for (const list of RULE_PRECEDENCE) {
    for (const pattern of rules[list]) {
      if (list === 'allow' && isCatchAllPattern(pattern)) {
        warnings.push(
          `permissions.allow has "${pattern}", which lets the model call every tool of every server without asking; ` +
            'allow servers or tools by name instead (e.g. "fs__read_*").',
        );
        continue;
      }
      if (list === 'allow' && !/[*?]/.test(pattern) && !pattern.includes(TOOL_NAME_SEPARATOR)) {
        // Reported whatever was started: allow rules never match a tool's own name alone (see rule-names.ts).
        warnings.push(
          `permissions.allow pattern "${pattern}" has no server part, so it never matches: allow rules name a tool ` +
            `as server__tool (e.g. "fs__${pattern}"), so that another server's tool of the same name is not allowed too.`,
        );
        continue;
      }
      if (named.some((tool) => namesFor(list, tool).some((name) => matchesGlob(pattern, name)))) continue;
      if (mayNameServerNotStarted(pattern, notStarted, servers)) continue;
      const hint = pattern.includes('__')
        ? 'check the server and tool names (`mcp-host tools list` shows them)'
        : 'tool names are namespaced as server__tool, e.g. "fs__read_file"';
      warnings.push(`permissions.${list} pattern "${pattern}" matches no tool; ${hint}.`);
    }
  }
  return warnings;
}

/**
 * Whether `pattern` may name a tool of one of `notStarted` (sanitised names): it has no server part, so it may name
 * any server's tool by the tool's own name, or it matches a name that belongs to one of them among all `servers`
 * (not to a longer server: `team__notes__add` is not a tool of `team`), however its server part is written.
 */
function mayNameServerNotStarted(pattern: string, notStarted: readonly string[], servers: readonly string[]): boolean {
  if (notStarted.length === 0) return false;
  if (!pattern.includes(TOOL_NAME_SEPARATOR)) return true;
  return mayNameToolOf(pattern, servers, notStarted);
}
