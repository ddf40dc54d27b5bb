/** A skill, instruction or memory file's text, bounded, with a refusal worded as a `SkillError`. */

import { BoundedReadError, readBoundedBytes } from '../json/read-bounded-file.js';
import { SkillError } from './skill-error.js';

/**
 * The file as UTF-8, refused (not cut) when larger than `maxBytes` (`what` names such a file in the refusal): a skill
 * is used whole or not at all. Only a regular file is read, and a named pipe cannot block the host.
 */
export function readBoundedText(file: string, maxBytes: number, what: string): string {
  return readBoundedFileBytes(file, maxBytes, what).toString('utf8');
}

/** As {@link readBoundedText}, the bytes as read (to be checked against a hash before they are used). */
export function readBoundedFileBytes(file: string, maxBytes: number, what: string): Buffer {
  try {
    return readBoundedBytes(file, maxBytes, { regularFileOnly: true });
  } catch (error) {
    if (!(error instanceof BoundedReadError)) throw error;
    const { failure } = error;
    if (failure.reason === 'too-large') {
      const size = failure.size === undefined ? `more than ${maxBytes}` : `${failure.size}`;
      throw new SkillError(file, `is ${size} bytes; ${what} may be at most ${maxBytes} bytes`);
    }
    throw new SkillError(file, `cannot be read: ${error.describe(maxBytes)}`);
  }
}
