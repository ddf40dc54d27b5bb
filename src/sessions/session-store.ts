/**
 * The saved sessions of one state folder: `<stateDir>/sessions/<id>.jsonl`, one file per session, owner-only.
 * Listing reads each file's header and its first and last records (read-session-summary.ts); reading one replays
 * its records.
 */
import { readdirSync, rmSync, statSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { mapBounded } from '../loop/bounded-parallel.js';
import { readSessionFile, type SavedSession } from './read-session-file.js';
import { readSessionSummary, readSessionSummaryAsync, type SessionFileSummary } from './read-session-summary.js';
import { createSessionFileWriter, type SessionFileWriter } from './session-file-writer.js';
import { isSessionId, sessionIdOfFileName } from './session-id.js';
import { holdSession, releaseSession } from './session-lock.js';
import { boundModelName, boundSessionTitle } from './session-title.js';

const SESSIONS_FOLDER = 'sessions';
/** Session files an asynchronous listing reads at once: enough to keep the file system's threads busy. */
const FILES_READ_AT_ONCE = 16;

export interface SessionSummary {
  id: string;
  /** Bounded as the host bounds a title it writes; the file's own may be of any length. */
  title: string;
  config: string | null;
  /** `provider:model` in use (cut with an ellipsis past MAX_MODEL_NAME_LENGTH): the last switch's or the last answer's (see readSessionSummary). */
  model: string;
  /** As `read` gives them: the header's start where it is the file's own, and the last record's time. */
  createdAt: string;
  updatedAt: string;
}

/** An id that names no saved session (or is not an id at all). */
export class UnknownSessionError extends Error {
  override readonly name = 'UnknownSessionError';
  constructor(
    readonly id: string,
    directory: string,
  ) {
    super(
      isSessionId(id)
        ? `no saved session "${id}" in ${directory} (\`mcp-host sessions list\` shows them)`
        : `"${id}" is not a session id (ids look like 20260101-120000-0123abcd; \`mcp-host sessions list\` shows them)`,
    );
  }
}

export interface SessionStore {
  readonly directory: string;
  fileOf(id: string): string;
  /** Where the full texts of a session's compacted tool results are kept. */
  resultsFolderOf(id: string): string;
  /** Newest first. Files that cannot be read are left out and reported to `onWarning`. */
  list(onWarning?: (message: string) => void): SessionSummary[];
  /** {@link list} without holding the event loop: a few files are read at a time, asynchronously. */
  listAsync(onWarning?: (message: string) => void): Promise<SessionSummary[]>;
  read(id: string): SavedSession;
  /** The newest session held with this config (null: without a config file). */
  /** `onWarning` hears of the session files passed over because they could not be read. */
  newestFor(config: string | null, onWarning?: (message: string) => void): SessionSummary | undefined;
  /** Deletes the session; refused (`SessionInUseError`) while another process has it open. */
  remove(id: string): void;
  writer(id: string): SessionFileWriter;
  /** Takes the session for this process (see session-lock.ts); `SessionInUseError` when another has it. */
  hold(id: string): void;
  release(id: string): void;
}

/** The ids of the session files among a folder's `names`. */
function sessionIds(names: readonly string[]): string[] {
  return names.flatMap((name) => sessionIdOfFileName(name) ?? []);
}

function summaryOf({ id, header, model, createdAt, updatedAt }: SessionFileSummary): SessionSummary {
  return {
    id,
    title: boundSessionTitle(header.title),
    config: header.config,
    model: boundModelName(model),
    createdAt,
    updatedAt,
  };
}

/** What reading one session file gave: its summary, or why it could not be read. */
type FileRead = { summary: SessionSummary } | { error: unknown };

/** The summaries read, newest first; each file that could not be read told to `onWarning`, in the folder's order. */
function newestFirst(read: readonly FileRead[], onWarning?: (message: string) => void): SessionSummary[] {
  const summaries: SessionSummary[] = [];
  for (const each of read) {
    // The reason names the file already.
    if ('error' in each) onWarning?.(`skipped a session: ${(each.error as Error).message}`);
    else summaries.push(each.summary);
  }
  return summaries.sort(
    (left, right) => right.updatedAt.localeCompare(left.updatedAt) || right.id.localeCompare(left.id),
  );
}

function sessionsFolder(stateDir: string): string {
  return join(stateDir, SESSIONS_FOLDER);
}

export function openSessionStore(stateDir: string): SessionStore {
  const directory = sessionsFolder(stateDir);
  const fileOf = (id: string) => join(directory, `${id}.jsonl`);
  const exists = (id: string) => {
    if (!isSessionId(id)) return false;
    try {
      return statSync(fileOf(id)).isFile();
    } catch {
      return false;
    }
  };
  const list = (onWarning?: (message: string) => void): SessionSummary[] => {
    let names: string[];
    try {
      names = readdirSync(directory);
    } catch {
      return [];
    }
    return newestFirst(
      sessionIds(names).map((id): FileRead => {
        try {
          return { summary: summaryOf(readSessionSummary(fileOf(id))) };
        } catch (error) {
          return { error };
        }
      }),
      onWarning,
    );
  };
  const listAsync = async (onWarning?: (message: string) => void): Promise<SessionSummary[]> => {
    let names: string[];
    try {
      names = await readdir(directory);
    } catch {
      return [];
    }
    const read = await mapBounded(
      sessionIds(names),
      FILES_READ_AT_ONCE,
      (id): Promise<FileRead> =>
        readSessionSummaryAsync(fileOf(id)).then(
          (summary) => ({ summary: summaryOf(summary) }),
          (error: unknown) => ({ error }),
        ),
    );
    return newestFirst(read, onWarning);
  };
  const resultsFolderOf = (id: string) => join(directory, `${id}.results`);
  return {
    directory,
    fileOf,
    resultsFolderOf,
    list,
    listAsync,
    read(id) {
      if (!exists(id)) throw new UnknownSessionError(id, directory);
      return readSessionFile(fileOf(id));
    },
    newestFor(config, onWarning) {
      return list(onWarning).find((summary) => summary.config === config);
    },
    remove(id) {
      if (!exists(id)) throw new UnknownSessionError(id, directory);
      holdSession(directory, id, 'delete');
      try {
        rmSync(fileOf(id));
        rmSync(resultsFolderOf(id), { recursive: true, force: true });
      } finally {
        releaseSession(directory, id);
      }
    },
    hold(id) {
      if (!isSessionId(id)) throw new UnknownSessionError(id, directory);
      holdSession(directory, id);
    },
    release(id) {
      if (isSessionId(id)) releaseSession(directory, id);
    },
    writer(id) {
      if (!isSessionId(id)) throw new UnknownSessionError(id, directory);
      return createSessionFileWriter(fileOf(id));
    },
  };
}
