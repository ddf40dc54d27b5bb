/**
 * Appends records to one session file. Each record is one line written in one synchronous call and then flushed to
 * the disk (fsync), so a completed message survives a crash or SIGKILL the moment `append` returns; a kill during the
 * write leaves at most one torn last line, which readers skip. The file is created on the first record (a
 * conversation that never sends anything leaves no file), owner-only, in an owner-only folder. It is opened for each
 * record and closed again, so a conversation holds no descriptor between messages. A symbolic link under the file's
 * name is not followed (appending through it would write into whatever file it names), and anything but a regular
 * file there (a pipe, a device) is refused, not written to.
 */
import { closeSync, constants, fsyncSync, mkdirSync, readSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { openAndExamine } from '../json/read-bounded-file.js';
import { errorCodeOf } from '../json/write-json-file.js';
import { boundMessage } from './bound-message.js';
import { MAX_SESSION_RECORD_BYTES, type SessionRecord } from './session-records.js';

const SESSION_FILE_MODE = 0o600;
const SESSIONS_FOLDER_MODE = 0o700;
/** Appending, with the last byte readable; never through a link, and never waiting on a pipe put in the file's place. */
const APPEND_FLAGS =
  constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK;

export interface SessionFileWriter {
  readonly file: string;
  append(record: SessionRecord): void;
}

function writeFully(descriptor: number, bytes: Buffer): void {
  let written = 0;
  while (written < bytes.length) written += writeSync(descriptor, bytes, written);
}

export function createSessionFileWriter(file: string): SessionFileWriter {
  const open = (): number => {
    let descriptor: number | undefined;
    try {
      mkdirSync(dirname(file), { recursive: true, mode: SESSIONS_FOLDER_MODE });
      const { descriptor: opened, stats } = openAndExamine(file, APPEND_FLAGS, SESSION_FILE_MODE);
      descriptor = opened;
      if (!stats.isFile()) throw new NotASessionFile();
      // A torn last line left by a killed host is closed off, so the next record starts a line of its own.
      const size = stats.size;
      if (size > 0) {
        const last = Buffer.alloc(1);
        readSync(opened, last, 0, 1, size - 1);
        if (last[0] !== 0x0a) writeFully(opened, Buffer.from('\n'));
      }
      return opened;
    } catch (error) {
      if (descriptor !== undefined) closeSync(descriptor);
      throw new Error(`could not open the session file ${file} (${whyNotOpened(error)})`);
    }
  };
  return {
    file,
    append(record) {
      const bounded =
        record.type === 'message'
          ? { ...record, message: boundMessage(record.message, MAX_SESSION_RECORD_BYTES) }
          : record;
      const target = open();
      try {
        writeFully(target, Buffer.from(`${JSON.stringify(bounded)}\n`, 'utf8'));
        fsyncSync(target);
      } catch (error) {
        throw new Error(`could not save to the session file ${file} (${errorCodeOf(error)}); check free space`);
      } finally {
        closeSync(target);
      }
    },
  };
}

class NotASessionFile extends Error {}

/** ELOOP is what O_NOFOLLOW answers for a link: said in words, with what to do. */
function whyNotOpened(error: unknown): string {
  if (error instanceof NotASessionFile) return 'it is a device, pipe or socket, not a file; remove it';
  const code = errorCodeOf(error);
  return code === 'ELOOP' ? 'it is a symbolic link, which is not followed; remove it' : code;
}
