/**
 * `mcp-host skills list|show NAME`: the Agent Skills this config sees, where each comes from and whether the model
 * is offered it (approved, new, or withheld until `mcp-host trust approve skill:NAME`). Starts no server.
 * Exit codes: 0 ok, 1 a skill could not be read (each problem names its file and field), 2 a usage error, or (`list`)
 * a config found in the working folder that is not approved yet, whose skills are not used.
 */

import path from 'node:path';
import { Command } from 'commander';
import { loadConfig } from '../../config/load-config.js';
import { chosenStateDir, ensureStateDir, resolveStateDir } from '../../config/state-dir.js';
import { type ApprovalsPlace, approvalsPlace } from '../../config/trust-commands.js';
import { describeHiddenContent, showRaw } from '../../policy/hidden-content.js';
import { type DiscoveredSkills, discoverSkills, type Skill } from '../../skills/discover-skills.js';
import { approveSkillCommand, hiddenContentInSkill } from '../../skills/review-skills.js';
import { pathInMessage } from '../../skills/skill-error.js';
import { SkillPins } from '../../skills/skill-pins.js';
import { PROJECT_SKILLS_FOLDER, skillSources } from '../../skills/skill-sources.js';
import { skillStatus } from '../../skills/skill-status.js';
import { CommandGroup } from '../command-group.js';
import { STATE_DIR_HELP } from '../common-options.js';
import { CliError, EXIT_OK, EXIT_RUN_FAILED, EXIT_USAGE } from '../exit-codes.js';
import { writeError, writeJson, writeLine } from '../output.js';
import { unapprovedConfigNote } from '../unapproved-config-note.js';

interface SkillsOptions {
  config?: string;
  stateDir?: string;
  json?: boolean;
}

/** How much of a description `skills list` shows on its one line. */
const LIST_DESCRIPTION_CHARACTERS = 100;

export function createSkillsCommand(): Command {
  const skills = new CommandGroup('skills').description('list the Agent Skills this config sees, or show one');
  const common = (command: Command): Command =>
    command
      .option('-c, --config <file>', 'config file (default: mcp-host.json, then .mcp.json in the current folder)')
      .option('--state-dir <dir>', STATE_DIR_HELP)
      .option('--json', 'print JSON');

  const list = common(new Command('list')).description(
    'every skill: name, where it comes from, whether it is offered, and its description',
  );
  list.action(async (options: SkillsOptions) => {
    const { discovered, pins, awaitingApproval } = await openSkills(options);
    const rows = discovered.skills.map((skill) => ({ skill, status: skillStatus(skill, pins) }));
    if (options.json) {
      writeJson({
        skills: rows.map(({ skill, status }) => ({ ...summary(skill), status })),
        problems: discovered.problems,
        warnings: discovered.warnings,
      });
    } else {
      if (rows.length === 0 && discovered.problems.length === 0 && !awaitingApproval) writeLine('No skills found.');
      for (const { skill, status } of rows) {
        const description = showRaw(skill.description.replace(/\s+/g, ' '));
        const shown =
          description.length > LIST_DESCRIPTION_CHARACTERS
            ? `${description.slice(0, LIST_DESCRIPTION_CHARACTERS - 1)}…`
            : description;
        writeLine(`${skill.name}  [${skill.source}, ${status}]  ${shown}`);
      }
    }
    report(discovered);
    // As the other listings exit for a config not approved yet: a config error, whatever else was found.
    if (awaitingApproval) process.exitCode = EXIT_USAGE;
  });
  skills.listByDefault(list);

  const show = common(new Command('show'))
    .description('one skill: its front matter, files, pin, and the body the model gets when it loads the skill')
    .argument('<name>', 'the skill name');
  show.action(async (name: string, options: SkillsOptions) => {
    const { discovered, pins, approvals } = await openSkills(options);
    const skill = discovered.skills.find((candidate) => candidate.name === name);
    if (skill === undefined) {
      const problem = discovered.problems.find((entry) => path.basename(path.dirname(entry.file)) === name);
      if (problem !== undefined) throw new CliError(problem.message, EXIT_RUN_FAILED);
      const known = discovered.skills.map((candidate) => candidate.name).join(', ') || '(none)';
      throw new CliError(`no skill named "${name}"; skills found: ${known}`, EXIT_USAGE);
    }
    const status = skillStatus(skill, pins);
    const pin = pins.pin(skill.name);
    // The files as hashed for the fingerprint shown, not a second look at the folder, which could differ.
    const { files } = skill;
    // Names the fingerprint of what is shown here, so the command approves that and nothing changed since.
    const approveCommand = status === 'approved' ? undefined : approveSkillCommand(skill, approvals);
    if (options.json) {
      writeJson({
        ...summary(skill),
        status,
        pin,
        ...(approveCommand === undefined ? {} : { approveCommand }),
        files,
        body: skill.body,
      });
      return;
    }
    writeLine(`name: ${skill.name}`);
    writeLine(`description: ${shownField(skill.description)}`);
    writeLine(`source: ${skill.source} (${pathInMessage(skill.folder)})`);
    if (skill.license !== undefined) writeLine(`license: ${shownField(skill.license)}`);
    if (skill.compatibility !== undefined) writeLine(`compatibility: ${shownField(skill.compatibility)}`);
    if (skill.allowedTools !== undefined) writeLine(`allowed-tools: ${shownField(skill.allowedTools.join(' '))}`);
    for (const [key, value] of Object.entries(skill.metadata ?? {})) {
      writeLine(`metadata.${shownField(key)}: ${shownField(value)}`);
    }
    writeLine(`fingerprint: ${skill.fingerprint}`);
    writeLine(`status: ${describeStatus(status)}`);
    if (approveCommand !== undefined) writeLine(`approve: ${approveCommand}`);
    for (const line of describeHiddenContent(hiddenContentInSkill(skill))) writeLine(`warning: ${line}`);
    writeLine('files:');
    for (const file of files) {
      const what = 'bytes' in file ? `${file.bytes} bytes` : `symbolic link to ${shownField(file.linkTarget, '    ')}`;
      writeLine(`  ${shownField(file.path, '    ')} (${what})`);
    }
    writeLine('---');
    writeLine(showRaw(skill.body));
  });
  skills.addCommand(show);
  return skills;
}

/**
 * A front-matter value as shown, its later lines indented: the skill's author wrote it, and a line of its own could
 * pass for the host's (`status: approved`) in the view the user reviews before approving.
 */
function shownField(value: string, indent = '  '): string {
  return showRaw(value).replace(/\r?\n/g, `\n${indent}`);
}

async function openSkills(
  options: SkillsOptions,
): Promise<{ discovered: DiscoveredSkills; pins: SkillPins; approvals: ApprovalsPlace; awaitingApproval: boolean }> {
  const config = await loadConfig({ configPath: options.config, stateDir: options.stateDir });
  const discovered = discoverSkills(skillSources(config, { cwd: process.cwd(), env: process.env }));
  const approvals = approvalsPlace(config.file, chosenStateDir(options.stateDir));
  // The skills it lists and those beside it are left out until it is approved: an empty listing is not the answer.
  const unapproved =
    config.file === undefined
      ? undefined
      : unapprovedConfigNote(
          config,
          approvals,
          `its skills are not used (those it lists, and those in ${path.join(path.dirname(config.file), PROJECT_SKILLS_FOLDER)})`,
        );
  if (unapproved !== undefined) writeError(`mcp-host: ${unapproved}`);
  const stateDir = ensureStateDir(resolveStateDir({ flag: options.stateDir }));
  return {
    discovered,
    pins: SkillPins.inStateDir(stateDir, { scope: config.file ?? '' }),
    approvals,
    awaitingApproval: unapproved !== undefined,
  };
}

function summary(skill: Skill) {
  return {
    name: skill.name,
    description: skill.description,
    source: skill.source,
    folder: skill.folder,
    ...(skill.license === undefined ? {} : { license: skill.license }),
    ...(skill.compatibility === undefined ? {} : { compatibility: skill.compatibility }),
    ...(skill.allowedTools === undefined ? {} : { allowedTools: skill.allowedTools }),
    ...(skill.metadata === undefined ? {} : { metadata: skill.metadata }),
    fingerprint: skill.fingerprint,
  };
}

/** The approve command is on the line after it (`approve:`), naming the fingerprint of what is shown. */
function describeStatus(status: ReturnType<typeof skillStatus>): string {
  switch (status) {
    case 'approved':
      return 'approved (offered to the model)';
    case 'new':
      return 'new (pinned and offered on the next run)';
    case 'flagged':
      return 'withheld: its description hides content; approve it with the command below';
    case 'changed':
      return 'withheld: its files changed since approval; approve it with the command below';
    case 'revoked':
      return 'withheld: revoked; approve it with the command below';
  }
}

/** Problems on stderr, and exit code 1 when a skill could not be used. */
function report(discovered: DiscoveredSkills): void {
  for (const warning of discovered.warnings) writeError(`mcp-host: ${warning}`);
  for (const problem of discovered.problems) writeError(`mcp-host: ${problem.message}`);
  process.exitCode = discovered.problems.length > 0 ? EXIT_RUN_FAILED : EXIT_OK;
}
