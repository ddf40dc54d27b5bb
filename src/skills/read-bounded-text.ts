/** Reading a file the host did not write, with a bound on its size. */

import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { SkillError } from './skill-error.js';

/**
 * The file as UTF-8, refused (not cut) when larger than `maxBytes` (`what` names such a file in the refusal): a skill
 * or an instruction file is used whole or not at all. A device or a pipe, whose size reads as 0, gives no text.
 */
export function readBoundedText(file: string, maxBytes: number, what: string): string {
  const descriptor = openSync(file, 'r');
  try {
    const size = fstatSync(descriptor).size;
    if (size > maxBytes) {
      throw new SkillError(file, `is ${size} bytes; ${what} may be at most ${maxBytes} bytes`);
    }
    const buffer = Buffer.alloc(size);
    let read = 0;
    while (read < size) {
      const count = readSync(descriptor, buffer, read, size - read, read);
      if (count === 0) break;
      read += count;
    }
    return buffer.subarray(0, read).toString('utf8');
  } finally {
    closeSync(descriptor);
  }
}
