/**
 * What `chat --resume ID` takes from the session itself when the command line does not say: the config file the
 * session was held with and the model it was using last. So a session resumes as it was, from any folder, and not
 * with the working folder's config. The recorded config is held to the approvals of a config found by discovery.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { loadRecordedConfig } from '../../config/load-config.js';
import { createEmptyConfig } from '../../config/parse-config.js';
import { resolveStateDir } from '../../config/state-dir.js';
import type { HostConfig } from '../../config/types.js';
import { quoteShellWord } from '../../json/quote-shell-word.js';
import { readSessionSummary } from '../../sessions/read-session-summary.js';
import { isSessionId } from '../../sessions/session-id.js';
import { openSessionStore, UnknownSessionError } from '../../sessions/session-store.js';
import { CliError, EXIT_USAGE } from '../exit-codes.js';

export interface RecordedSetting {
  config: HostConfig;
  /** `provider:model` the session used last. */
  model: string;
}

export async function recordedSetting(id: string, stateDir: string | undefined): Promise<RecordedSetting> {
  const store = openSessionStore(resolveStateDir(stateDir === undefined ? {} : { flag: stateDir }));
  const file = store.fileOf(id);
  if (!isSessionId(id) || !existsAsFile(file)) throw new UnknownSessionError(id, store.directory);
  const { header, model } = readSessionSummary(file);
  if (header.config === null) return { config: createEmptyConfig(), model };
  const configFile = header.config;
  const config = path.isAbsolute(configFile)
    ? await loadRecordedConfig(configFile, stateDir === undefined ? {} : { stateDir })
    : undefined;
  if (config === undefined) {
    throw new CliError(
      `session ${id} was held with the config file ${quoteShellWord(configFile)}, which is no longer there: resume it with another config (mcp-host chat --resume ${id} --config FILE), or put the file back`,
      EXIT_USAGE,
    );
  }
  return { config, model };
}

function existsAsFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}
