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
import type { SkillCheck, SkillPins } from './skill-pins.js';

export interface WithheldSkill {
  skill: Skill;
  status: SkillCheck;
  /** For the user: why, and the command that approves it. */
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
 * `approvals`: where the pins are kept (config file, chosen state folder), named in the commands of the messages.
 */
export function reviewSkills(skills: readonly Skill[], pins: SkillPins, approvals: ApprovalsPlace = {}): SkillReview {
  const review: SkillReview = { offered: [], withheld: [], pinned: [] };
  for (const skill of skills) {
    const status = pins.check(skill.name, skill.fingerprint);
    const approve = trustApproveCommand({ skill: skill.name }, approvals);
    if (status === 'approved') {
      review.offered.push(skill);
    } else if (status === 'new') {
      const flags = hiddenContentInSkill(skill);
      if (flags.length > 0) {
        review.withheld.push({
          skill,
          status,
          message: `skill "${skill.name}" is withheld: its description hides content (${describeHiddenContent(flags).join('; ')}); review ${skill.file}, then run: ${approve}`,
        });
      } else {
        pins.approve(skill.name, skill.fingerprint, skill.folder, 'first-sight');
        review.pinned.push(skill);
        review.offered.push(skill);
      }
    } else {
      const why = status === 'changed' ? `its files changed since it was approved (${skill.folder})` : 'it was revoked';
      review.withheld.push({
        skill,
        status,
        message: `skill "${skill.name}" is withheld: ${why}; review it with \`${skillsShowCommand(skill.name, approvals)}\`, then run: ${approve}`,
      });
    }
  }
  return review;
}
