/** Says, one line each, how two trust store contents differ: servers and tools added, removed, approved, revoked. */
import type { StoredServer, TrustStoreData } from './trust-store-file.js';

/** Lines past this are summed up in one last line. */
const MAX_LINES = 20;

export function describeTrustStoreChanges(before: TrustStoreData, after: TrustStoreData): string[] {
  const lines: string[] = [];
  const scopes = new Set(['', ...Object.keys(before.scopes ?? {}), ...Object.keys(after.scopes ?? {})]);
  for (const scope of scopes) {
    const old = serversOf(before, scope);
    const now = serversOf(after, scope);
    const where = scope === '' ? '' : ` (config ${scope})`;
    for (const name of new Set([...Object.keys(old), ...Object.keys(now)])) {
      lines.push(...serverChanges(`server "${name}"${where}`, old[name], now[name]));
    }
  }
  if (lines.length <= MAX_LINES) return lines;
  return [...lines.slice(0, MAX_LINES), `and ${lines.length - MAX_LINES} more changes`];
}

function serversOf(data: TrustStoreData, scope: string): Record<string, StoredServer> {
  return (scope === '' ? data.servers : data.scopes?.[scope]?.servers) ?? {};
}

function serverChanges(label: string, old: StoredServer | undefined, now: StoredServer | undefined): string[] {
  if (old === undefined && now === undefined) return [];
  if (old === undefined) {
    const tools = Object.entries(now!.tools).filter(([, tool]) => tool.state === 'approved');
    return [`${label} was added as ${now!.state}, with ${tools.length} approved tools`];
  }
  if (now === undefined) return [`${label} was removed`];
  const lines: string[] = [];
  if (old.state !== now.state) lines.push(`${label} went from ${old.state} to ${now.state}`);
  if (old.identity !== now.identity) lines.push(`${label} has another identity (command line, cwd, env or URL)`);
  for (const tool of new Set([...Object.keys(old.tools), ...Object.keys(now.tools)])) {
    const was = old.tools[tool];
    const is = now.tools[tool];
    if (was === undefined) lines.push(`${label} tool "${tool}" was added as ${is!.state}`);
    else if (is === undefined) lines.push(`${label} tool "${tool}" was removed`);
    else {
      if (was.state !== is.state) lines.push(`${label} tool "${tool}" went from ${was.state} to ${is.state}`);
      if (was.fingerprint !== is.fingerprint) lines.push(`${label} tool "${tool}" has another approved definition`);
    }
  }
  const wasAllowed = new Set(old.alwaysAllowed);
  const isAllowed = new Set(now.alwaysAllowed);
  for (const tool of isAllowed) if (!wasAllowed.has(tool)) lines.push(`${label} tool "${tool}" is now always allowed`);
  for (const tool of wasAllowed)
    if (!isAllowed.has(tool)) lines.push(`${label} tool "${tool}" is no longer always allowed`);
  return lines;
}
