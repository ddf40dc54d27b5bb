/**
 * `mcp-host trust approve skill:NAME` and `mcp-host trust revoke skill:NAME`: a skill's pin, set or revoked from the
 * command line — the command every "skill withheld" message names. Approving pins the skill's files as they are
 * now and warns about hidden content in its description first, so approving from a script is not blind. With
 * `--fingerprint` (the command `skills show` prints) it pins them only while they are still the ones reviewed: files
 * changed between the review and the approval are refused, not approved unseen.
 */

import type { Command } from 'commander';
import type { TrustChangeKind } from '../../audit/audit-record.js';
import { loadConfig } from '../../config/load-config.js';
import { chosenStateDir, ensureStateDir, resolveStateDir } from '../../config/state-dir.js';
import { approvalsPlace, FINGERPRINT_OPTION, skillsShowCommand } from '../../config/trust-commands.js';
import { describeHiddenContent } from '../../policy/hidden-content.js';
import { discoverSkills } from '../../skills/discover-skills.js';
import { hiddenContentInSkill } from '../../skills/review-skills.js';
import { isSkillFingerprint } from '../../skills/skill-fingerprint.js';
import { SkillPins } from '../../skills/skill-pins.js';
import { skillSources } from '../../skills/skill-sources.js';
import { EXIT_RUN_FAILED, EXIT_USAGE } from '../exit-codes.js';
import type { TextWriter } from '../output.js';

export const SKILL_PREFIX = 'skill:';

export interface SkillTrustContext {
  configPath?: string;
  stateDir?: string;
  stdout: TextWriter;
  stderr: TextWriter;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  /** Writes a trust-change record (server `skill:NAME`). */
  record: (
    stateDir: string,
    secrets: string[],
    server: string,
    change: TrustChangeKind,
    detail: string,
    fingerprint?: string,
  ) => void;
}

async function open(context: SkillTrustContext) {
  const config = await loadConfig({
    ...(context.configPath === undefined ? {} : { configPath: context.configPath }),
    cwd: context.cwd,
    env: context.env,
  });
  const stateDir = ensureStateDir(
    resolveStateDir({
      ...(context.stateDir === undefined ? {} : { flag: context.stateDir }),
      env: context.env,
      cwd: context.cwd,
    }),
  );
  const pins = SkillPins.inStateDir(stateDir, { scope: config.file ?? '' });
  return { config, stateDir, pins };
}

/** `reviewed`: the fingerprint given with `--fingerprint`, the skill's as `skills show` showed it. */
export async function approveSkill(
  command: Command,
  name: string,
  context: SkillTrustContext,
  reviewed?: string,
): Promise<void> {
  if (reviewed !== undefined && !isSkillFingerprint(reviewed)) {
    command.error(
      `error: ${FINGERPRINT_OPTION} takes the skill's whole fingerprint as \`mcp-host skills show ${name}\` prints it ("sha256:" and 64 hexadecimal digits), not ${JSON.stringify(reviewed.slice(0, 80))}.`,
      { exitCode: EXIT_USAGE },
    );
  }
  const { config, stateDir, pins } = await open(context);
  const discovered = discoverSkills(skillSources(config, { cwd: context.cwd, env: context.env }));
  const skill = discovered.skills.find((candidate) => candidate.name === name);
  if (skill === undefined) {
    const problem = discovered.problems.find((entry) => entry.file.endsWith(`/${name}/SKILL.md`));
    const known = discovered.skills.map((candidate) => candidate.name).join(', ') || '(none)';
    command.error(
      problem === undefined
        ? `error: no skill named "${name}"; skills found: ${known}.`
        : `error: skill "${name}" cannot be used: ${problem.message}`,
      problem === undefined ? {} : { exitCode: EXIT_RUN_FAILED },
    );
  }
  if (reviewed !== undefined && reviewed !== skill.fingerprint) {
    const show = skillsShowCommand(name, approvalsPlace(config.file, chosenStateDir(context.stateDir, context.cwd)));
    command.error(
      `error: skill "${name}" changed since it was reviewed: its fingerprint is now ${skill.fingerprint}, not ${reviewed} as given with ${FINGERPRINT_OPTION}; nothing was approved. Review it again with \`${show}\`, which prints the command that approves what it shows.`,
      { exitCode: EXIT_USAGE },
    );
  }
  const status = pins.check(skill.name, skill.fingerprint);
  for (const line of describeHiddenContent(hiddenContentInSkill(skill))) {
    context.stderr.write(`Warning: skill ${name}: ${line}\n`);
  }
  if (status === 'approved') {
    context.stdout.write(`Skill ${name} is already approved (${skill.fingerprint}).\n`);
    return;
  }
  // Recorded first: an approval the audit log cannot take is not made.
  context.record(
    stateDir,
    config.secrets,
    `${SKILL_PREFIX}${name}`,
    'skill-approved',
    `Approved from the command line (was ${status}).`,
    skill.fingerprint,
  );
  pins.approve(skill.name, skill.fingerprint, skill.folder, 'command-line');
  context.stdout.write(`Approved skill ${name} (was ${status}; ${skill.folder}).\n`);
}

export async function revokeSkill(command: Command, name: string, context: SkillTrustContext): Promise<void> {
  const { config, stateDir, pins } = await open(context);
  if (!pins.revoke(name)) command.error(`error: skill "${name}" has no approval to revoke.`);
  context.record(stateDir, config.secrets, `${SKILL_PREFIX}${name}`, 'skill-revoked', 'Revoked from the command line.');
  const show = skillsShowCommand(name, approvalsPlace(config.file, chosenStateDir(context.stateDir, context.cwd)));
  context.stdout.write(
    `Revoked skill ${name}: withheld until you approve it again (review it with \`${show}\`, which prints the command).\n`,
  );
}
