/**
 * Session ids are also file names: time first (they sort by creation), then randomness (two hosts starting in the
 * same second do not collide). Anything else is refused before it comes near a path.
 */
import { randomBytes } from 'node:crypto';

const SESSION_ID_PATTERN = /^\d{8}-\d{6}-[a-f0-9]{8}$/;
const SESSION_FILE_ENDING = '.jsonl';

export function createSessionId(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${stamp}-${randomBytes(4).toString('hex')}`;
}

export function isSessionId(value: string): boolean {
  return SESSION_ID_PATTERN.test(value);
}

/**
 * The id of the session a file of the sessions folder holds, by its name; undefined for any other file there (a lock,
 * a file being written, anything someone left).
 */
export function sessionIdOfFileName(name: string): string | undefined {
  if (!name.endsWith(SESSION_FILE_ENDING)) return undefined;
  const id = name.slice(0, -SESSION_FILE_ENDING.length);
  return isSessionId(id) ? id : undefined;
}
