/**
 * Where servers' log messages (`notifications/message`) go: one file per server in the host's state folder, so a
 * misbehaving server can be investigated after the run, and — with `--verbose` — to stderr as they arrive. Lines
 * are appended in arrival order; a file past its size bound is moved aside once per run, so logs cannot fill the
 * disk.
 */
import { appendFile, mkdir, rename, stat } from 'node:fs/promises';
import path from 'node:path';
import type { LoggingMessageNotificationParams } from '@modelcontextprotocol/client';
import { sanitiseName } from '../catalog/tool-naming.js';
import { stringifyJsonWithinDepth } from '../json/json-depth.js';
import { showRaw } from '../policy/hidden-content.js';

/** A log file past this size is renamed to `<name>.log.1` (replacing an older one) before the next run writes. */
const MAX_SERVER_LOG_BYTES = 5 * 1024 * 1024;
/** Lines of one server waiting for the disk past which further lines are dropped (the disk cannot keep up). */
const MAX_QUEUED_LOG_LINES = 10_000;

export interface ServerLogEntry {
  server: string;
  time: Date;
  level: LoggingMessageNotificationParams['level'];
  logger?: string;
  data: unknown;
}

/** One line: time, level, logger, then the message (text as it is, anything else as JSON), invisible characters escaped. */
export function formatServerLogLine(entry: ServerLogEntry): string {
  const logger = entry.logger !== undefined ? ` [${entry.logger}]` : '';
  const data = typeof entry.data === 'string' ? entry.data : stringifyJsonWithinDepth(entry.data, 'the log data');
  return showRaw(`${entry.time.toISOString()} ${entry.level}${logger} ${data ?? ''}`).replace(/\n/g, '\\n');
}

export interface ServerLog {
  /** The file a server's messages are appended to. */
  fileFor(server: string): string;
  write(entry: ServerLogEntry): void;
  /** Resolves when everything written so far is on disk. */
  flush(): Promise<void>;
}

export function createServerLog(options: { directory: string; onError?: (message: string) => void }): ServerLog {
  const pending = new Map<string, Promise<void>>();
  const queued = new Map<string, string[]>();
  const prepared = new Set<string>();

  const fileFor = (server: string): string => path.join(options.directory, `${sanitiseName(server)}.log`);

  const prepare = async (file: string): Promise<void> => {
    if (prepared.has(file)) return;
    prepared.add(file);
    await mkdir(options.directory, { recursive: true, mode: 0o700 });
    const size = await stat(file).then(
      (stats) => stats.size,
      () => 0,
    );
    if (size > MAX_SERVER_LOG_BYTES) await rename(file, `${file}.1`);
  };

  // Lines wait in memory only while the previous batch is written; each batch is one append, and the queue is capped.
  const drain = async (server: string, file: string, lines: string[]): Promise<void> => {
    try {
      await prepare(file);
      while (lines.length > 0) await appendFile(file, lines.splice(0).join(''), { mode: 0o600 });
    } catch (error) {
      lines.length = 0;
      options.onError?.(
        `could not write the log of server "${server}" to ${file}: ${error instanceof Error ? error.message : String(error)}`,
      );
    } finally {
      pending.delete(file);
      queued.delete(file);
    }
  };

  return {
    fileFor,
    write(entry) {
      const file = fileFor(entry.server);
      const line = `${formatServerLogLine(entry)}\n`;
      const lines = queued.get(file);
      if (lines) {
        if (lines.length < MAX_QUEUED_LOG_LINES) lines.push(line);
        return;
      }
      const batch = [line];
      queued.set(file, batch);
      pending.set(file, drain(entry.server, file, batch));
    },
    async flush() {
      await Promise.all(pending.values());
    },
  };
}
