/**
 * Which model answers a server's sampling request. The host's own model by default; the config may name another
 * for all sampling, for one server, or for the model names a server hints at (`modelPreferences.hints`, which
 * MCP defines as substrings of model names, in the server's order of preference).
 */
import type { SamplingSettings } from '../config/types.js';

/** `provider:model` from the config, or undefined for the host's own model. */
export function chooseSamplingModel(
  settings: SamplingSettings | undefined,
  serverName: string,
  hints: readonly string[],
): string | undefined {
  if (settings === undefined) return undefined;
  const forServer = Object.hasOwn(settings.servers, serverName) ? settings.servers[serverName] : undefined;
  if (forServer !== undefined) return forServer;
  // Longest keys first, so the most specific mapping wins when several match one hint.
  const keys = Object.keys(settings.hints).sort(
    (left, right) => right.length - left.length || left.localeCompare(right),
  );
  for (const hint of hints) {
    const lower = hint.toLowerCase();
    if (lower === '') continue;
    const key = keys.find((candidate) => {
      const keyLower = candidate.toLowerCase();
      return lower.includes(keyLower) || keyLower.includes(lower);
    });
    if (key !== undefined) return settings.hints[key];
  }
  return settings.model;
}
