/** A host opened from the options every command takes (see common-options.ts). */
import { configFromObject } from '../config/config-from-object.js';
import { loadConfig } from '../config/load-config.js';
import { createHost, type Host, type HostOptions } from '../host/create-host.js';
import { parseModelSpec } from '../host/model-choice.js';
import { chooseApprover } from './choose-approver.js';
import { onlyServers } from './choose-servers.js';
import type { CommonOptions } from './common-options.js';
import { noServersNote } from './no-servers-note.js';
import { writeError } from './output.js';

export async function openHost(options: CommonOptions, extra: Partial<HostOptions> = {}): Promise<Host> {
  // A command that calls no model (servers, tools list, context …) still takes --model: a misspelt one is said, not
  // ignored, and before any server starts.
  if (options.model !== undefined) parseModelSpec(options.model);
  // With --server, the config is read here so only the named servers reach the host (and are started).
  // A command may have read the config already (run does, to check its model first).
  const given = typeof extra.config === 'object' ? configFromObject(extra.config) : undefined;
  const config =
    options.server === undefined
      ? (given ?? options.config)
      : onlyServers(
          given ?? (await loadConfig({ configPath: options.config, stateDir: options.stateDir })),
          options.server,
        );
  const host = await createHost({
    model: options.model,
    baseUrl: options.baseUrl,
    toolTimeoutMs: options.timeout,
    stateDir: options.stateDir,
    ...(options.root === undefined ? {} : { roots: options.root }),
    onDiagnostic: (message) => writeError(`mcp-host: ${message}`),
    ...extra,
    config,
    approver: extra.approver ?? chooseApprover(options),
  });
  const note = noServersNote(host.config, host.approvals);
  if (note !== undefined) writeError(`mcp-host: ${note}`);
  return host;
}
