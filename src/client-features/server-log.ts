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
export const MAX_SERVER_LOG_BYTES = 5 * 1024 * 1024;

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

  return {
    fileFor,
    write(entry) {
      const file = fileFor(entry.server);
      const line = `${formatServerLogLine(entry)}\n`;
      const previous = pending.get(file) ?? Promise.resolve();
      const next = previous
        .then(() => prepare(file))
        .then(() => appendFile(file, line, { mode: 0o600 }))
        .catch((error: unknown) => {
          options.onError?.(
            `could not write the log of server "${entry.server}" to ${file}: ${error instanceof Error ? error.message : String(error)}`,
          );
        });
      pending.set(file, next);
    },
    async flush() {
      await Promise.all(pending.values());
    },
  };
}
