/** Replaces a JSON file atomically (a temporary file beside it, fsynced, then renamed) with the given mode. */
import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';

/** Throws the file system's error; callers say what could not be saved. */
export function writeJsonFileAtomically(file: string, data: unknown, mode: number): void {
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  let descriptor: number | undefined;
  try {
    descriptor = openSync(temporary, 'wx', mode);
    const bytes = Buffer.from(jsonFileText(data), 'utf8');
    let written = 0;
    while (written < bytes.length) written += writeSync(descriptor, bytes, written);
    fsyncSync(descriptor);
    closeSync(descriptor);
    descriptor = undefined;
    renameSync(temporary, file);
  } catch (error) {
    if (descriptor !== undefined) closeSync(descriptor);
    rmSync(temporary, { force: true });
    throw error;
  }
}

/** The exact text `writeJsonFileAtomically` writes for `data`. */
export function jsonFileText(data: unknown): string {
  return `${JSON.stringify(data, null, 2)}\n`;
}

export function errorCodeOf(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? (error as Error).message;
}
