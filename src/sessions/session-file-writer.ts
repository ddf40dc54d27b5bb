/**
 * Appends records to one session file. Each record is one line written in one synchronous call and then flushed to
 * the disk (fsync), so a completed message survives a crash or SIGKILL the moment `append` returns; a kill during the
 * write leaves at most one torn last line, which readers skip. The file is created on the first record (a
 * conversation that never sends anything leaves no file), owner-only, in an owner-only folder. It is opened for each
 * record and closed again, so a conversation holds no descriptor between messages.
 */
import { closeSync, fstatSync, fsyncSync, mkdirSync, openSync, readSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { errorCodeOf } from '../json/write-json-file.js';
import { boundMessage } from './bound-message.js';
import { MAX_SESSION_RECORD_BYTES, type SessionRecord } from './session-records.js';

const SESSION_FILE_MODE = 0o600;
const SESSIONS_FOLDER_MODE = 0o700;

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
      descriptor = openSync(file, 'a+', SESSION_FILE_MODE);
      const opened = descriptor;
      // A torn last line left by a killed host is closed off, so the next record starts a line of its own.
      const size = fstatSync(opened).size;
      if (size > 0) {
        const last = Buffer.alloc(1);
        readSync(opened, last, 0, 1, size - 1);
        if (last[0] !== 0x0a) writeFully(opened, Buffer.from('\n'));
      }
      return opened;
    } catch (error) {
      if (descriptor !== undefined) closeSync(descriptor);
      throw new Error(`could not open the session file ${file} (${errorCodeOf(error)})`);
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
