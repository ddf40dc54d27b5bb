/**
 * `mcp-host trust config [FILE]`: approves the content of a config file found by discovery (`mcp-host.json` or
 * `.mcp.json` in the working folder), the command named when such a file is not used yet. What the file would
 * run and the rules it sets are printed, so approving is not blind.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { approveConfig } from '../../config/config-approvals.js';
import { CONFIG_FILE_NAMES } from '../../config/load-config.js';
import { parseConfig } from '../../config/parse-config.js';
import { readConfigText } from '../../config/read-config-text.js';
import { resolveStateDir } from '../../config/state-dir.js';
import { redactSecrets } from '../../text/redact-secrets.js';
import { stripControlCodes } from '../../text/strip-control-codes.js';
import type { SkillTrustContext } from './trust-skill.js';

export async function approveConfigFile(
  command: Command,
  fileArgument: string | undefined,
  context: SkillTrustContext,
): Promise<void> {
  const named = fileArgument ?? context.configPath;
  const file =
    named === undefined
      ? CONFIG_FILE_NAMES.map((name) => path.join(context.cwd, name)).find((candidate) => existsSync(candidate))
      : path.resolve(context.cwd, named);
  if (file === undefined) {
    command.error(
      `error: there is no ${CONFIG_FILE_NAMES.join(' or ')} in ${context.cwd} to approve; name the file: mcp-host trust config FILE`,
    );
  }
  const text = await readConfigText(file);
  if (text === undefined) command.error(`error: there is no ${file} to approve.`);
  const config = parseConfig(text, file, context.env, { cwd: path.dirname(file) });
  const show = (value: string) => stripControlCodes(redactSecrets(value, config.secrets));
  const lines = config.servers.map((server) => {
    const runs = server.transport === 'stdio' ? [server.command, ...server.args].join(' ') : server.url;
    return `  ${show(server.name)}: ${show(runs)}${server.trust === 'trusted' ? ' (marked trusted)' : ''}`;
  });
  // Every kind of rule: an approved file's deny and ask rules decide calls as its allow rules do.
  for (const kind of ['allow', 'ask', 'deny'] as const) {
    for (const rule of config.permissions[kind]) lines.push(`  ${kind} rule: ${show(rule)}`);
  }
  const stateDir = resolveStateDir({
    ...(context.stateDir === undefined ? {} : { flag: context.stateDir }),
    env: context.env,
    cwd: context.cwd,
  });
  const sha256 = approveConfig(stateDir, file, text);
  context.record(stateDir, config.secrets, 'config', 'approved', `${file} sha256 ${sha256}`);
  context.stdout.write(
    `Approved ${file} (sha256 ${sha256.slice(0, 16)}…) as it is now; it is asked about again if it changes.\n${
      lines.length > 0 ? `It configures:\n${lines.join('\n')}\n` : 'It configures no servers.\n'
    }`,
  );
}
