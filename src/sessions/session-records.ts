/**
 * The lines of a saved session file (`<stateDir>/sessions/<id>.jsonl`), one JSON record per line, in the order
 * they happened. The transcript is the providers' neutral `Message` type, never a vendor wire format, so a
 * session resumes with any provider.
 */
import type { Message } from '../providers/types.js';

/** The format of the records below; a reader refuses a file of a newer version. */
export const SESSION_FORMAT_VERSION = 1;

/** First line: what the session is and where it belongs. */
export interface SessionHeaderRecord {
  type: 'session';
  version: number;
  id: string;
  /** The config file the session was held with (absolute), or null without one. */
  config: string | null;
  /** `provider:model` at the start. */
  model: string;
  createdAt: string;
  /** The first user text, bounded, without control codes. */
  title: string;
}

/** One completed message of the transcript. */
interface SessionMessageRecord {
  type: 'message';
  at: string;
  /**
   * `provider:model` that wrote an assistant message: a listing finds the model in use from the file's last records
   * instead of replaying it all. Absent on other messages and in files of earlier versions.
   */
  model?: string;
  message: Message;
}

/** The model was switched; later turns use it. */
interface SessionModelRecord {
  type: 'model';
  at: string;
  model: string;
}

/** Older turns were replaced by a summary: the transcript is now `[...messages, ...transcript.slice(keptFrom)]`. */
interface SessionCompactionRecord {
  type: 'compaction';
  at: string;
  /** The messages standing for the older turns (the summary and its acknowledgement). */
  messages: Message[];
  keptFrom: number;
  /**
   * The answered tool calls of the messages it replaced: a chat numbers the calls after them, as it did before the
   * compaction. Absent in files of earlier versions, where the reader counts them.
   */
  replacedToolCalls?: number;
}

export type SessionRecord = SessionHeaderRecord | SessionMessageRecord | SessionModelRecord | SessionCompactionRecord;

/** A record longer than this (bytes of its line) is shortened before it is written, and skipped when read. */
export const MAX_SESSION_RECORD_BYTES = 16 * 1024 * 1024;
