/**
 * Whether a permission pattern may name a tool of some of the servers. A name belongs to the longest server it
 * starts with followed by `__` (see server-of-name.ts), whatever part of the pattern spelt that server out: beside a
 * server `team__notes`, `te?m__notes__x` names only team__notes' tools, while `te?m__no?es__x` may name `noXes__x`
 * of `team`. So the pattern is walked together with the name it matches, one character at a time, for as long as
 * that name may still grow into a longer server's `SERVER__`; past that its server is settled, and the rest of
 * the pattern always matches something.
 */
import { serverOfName } from '../catalog/server-of-name.js';
import { TOOL_NAME_SEPARATOR } from '../catalog/tool-naming.js';

/** A character in no server's name (they are sanitised): what a wildcard reads to leave every server's name. */
const ELSEWHERE = '\u0000';

/** Whether `pattern` matches some name that belongs to one of `wanted`, among all the `servers` there are. */
export function mayNameToolOf(pattern: string, servers: readonly string[], wanted: readonly string[]): boolean {
  const beginnings = servers.map((server) => `${server}${TOOL_NAME_SEPARATOR}`);
  const characters = Array.from(pattern);
  let lastNonStar = characters.length - 1;
  while (characters[lastNonStar] === '*') lastNonStar -= 1;
  const belongsToWanted = (name: string): boolean => {
    const owner = serverOfName(name, servers);
    return owner !== undefined && wanted.includes(owner);
  };
  // The place in the pattern and the name read so far. A stack, not recursion: a config's pattern may be long.
  const toVisit: Array<[number, string]> = [[0, '']];
  const seen = new Set<string>();
  while (toVisit.length > 0) {
    const [at, read] = toVisit.pop()!;
    const key = `${at}:${read}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const growsWith = new Set(
      beginnings
        .filter((beginning) => beginning.length > read.length && beginning.startsWith(read))
        .map((beginning) => beginning[read.length]!),
    );
    const settled = growsWith.size === 0;
    // The name ends here, or its server is settled: the name belongs to the server it has begun with.
    if ((settled || at > lastNonStar) && belongsToWanted(read)) return true;
    if (settled || at === characters.length) continue;
    const character = characters[at]!;
    if (character === '*') toVisit.push([at + 1, read]);
    const next = character === '*' ? at : at + 1;
    const readable = character === '*' || character === '?' ? [...growsWith, ELSEWHERE] : [character];
    for (const following of readable) toVisit.push([next, read + following]);
  }
  return false;
}
