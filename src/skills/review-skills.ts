/**
 * Which discovered skills the model is offered, given what the user approved. The policy, exactly:
 * - first sight of a skill: its fingerprint is pinned (trust on first use) and it is offered — unless its name or
 *   description hides content (the scanner used for tool descriptions: escape codes, invisible or direction
 *   characters, `<IMPORTANT>`-style tags), in which case it is withheld until approved;
 * - a skill whose files match its pin: offered;
 * - a skill whose files changed since approval, or that the user revoked: withheld until approved again.
 * A withheld skill is neither listed in the system prompt nor loadable.
 */

import { type ApprovalsPlace, skillsShowCommand, trustApproveCommand } from '../config/trust-commands.js';
import { describeHiddenContent, findHiddenContent, type HiddenContentFlag } from '../policy/hidden-content.js';
import type { Skill } from './discover-skills.js';
import { pathInMessage } from './skill-error.js';
import type { SkillCheck, SkillPins } from './skill-pins.js';

export interface WithheldSkill {
  skill: Skill;
  status: SkillCheck;
  /** Why, for people, naming no command. */
  reason: string;
  /** For the user: why, and how to review it ({@link withheldSkillMessage}). */
  message: string;
}

export interface SkillReview {
  offered: Skill[];
  withheld: WithheldSkill[];
  /** Skills pinned just now on first sight (for the audit log). */
  pinned: Skill[];
}

export function hiddenContentInSkill(skill: Pick<Skill, 'name' | 'description'>): HiddenContentFlag[] {
  return [
    ...findHiddenContent(skill.description),
    ...findHiddenContent(skill.name).map((flag) => ({ ...flag, location: 'name' })),
  ];
}

/**
 * The command that approves `skill` as the host read and hashed it: with its fingerprint (`--fingerprint`), so that,
 * copied, it approves exactly those files, and is refused should they change before it runs. Only `skills show` gives
 * it, under the skill it shows: what it approves is then what the user reviewed.
 */
export function approveSkillCommand(skill: Pick<Skill, 'name' | 'fingerprint'>, place: ApprovalsPlace): string {
  return trustApproveCommand({ skill: skill.name, fingerprint: skill.fingerprint }, place);
}

/**
 * A withheld skill's message: why, and the `skills show` command to review it, naming `place`. It gives no approve
 * command: one naming the fingerprint of the files the host read would approve content the user never saw, as someone
 * who can write the skill's folder could show a harmless version during the review and put back the one the host read.
 */
export function withheldSkillMessage(entry: Pick<WithheldSkill, 'skill' | 'reason'>, place: ApprovalsPlace): string {
  const show = skillsShowCommand(entry.skill.name, place);
  return `skill "${entry.skill.name}" is withheld: ${entry.reason}; review it with \`${show}\`, which prints the command that approves what it shows`;
}

/**
 * `approvals`: where the pins are kept (config file, chosen state folder), named in the commands of the messages.
 */
export function reviewSkills(skills: readonly Skill[], pins: SkillPins, approvals: ApprovalsPlace = {}): SkillReview {
  const review: SkillReview = { offered: [], withheld: [], pinned: [] };
  for (const skill of skills) {
    const status = pins.check(skill.name, skill.fingerprint);
    const withhold = (reason: string) => {
      const entry = { skill, status, reason };
      review.withheld.push({ ...entry, message: withheldSkillMessage(entry, approvals) });
    };
    if (status === 'approved') {
      review.offered.push(skill);
    } else if (status === 'new') {
      const flags = hiddenContentInSkill(skill);
      if (flags.length > 0) {
        withhold(`its description hides content (${describeHiddenContent(flags).join('; ')})`);
      } else {
        pins.approve(skill.name, skill.fingerprint, skill.folder, 'first-sight');
        review.pinned.push(skill);
        review.offered.push(skill);
      }
    } else {
      withhold(
        status === 'changed'
          ? `its files changed since it was approved (${pathInMessage(skill.folder)})`
          : 'it was revoked',
      );
    }
  }
  return review;
}
