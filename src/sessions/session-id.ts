/**
 * Session ids are also file names: time first (they sort by creation), then randomness (two hosts starting in the
 * same second do not collide). Anything else is refused before it comes near a path.
 */
import { randomBytes } from 'node:crypto';

const SESSION_ID_PATTERN = /^\d{8}-\d{6}-[a-f0-9]{8}$/;

export function createSessionId(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${stamp}-${randomBytes(4).toString('hex')}`;
}

export function isSessionId(value: string): boolean {
  return SESSION_ID_PATTERN.test(value);
}
