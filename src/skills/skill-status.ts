/** A skill's state for people (`skills list`, `skills show`, `context`), read without changing any pin. */

import type { Skill } from './discover-skills.js';
import { hiddenContentInSkill } from './review-skills.js';
import type { SkillPins } from './skill-pins.js';

/**
 * `approved`: offered; `new`: pinned and offered on the next run; `flagged`: new, but withheld because its
 * description hides content; `changed` / `revoked`: withheld until `mcp-host trust approve skill:NAME`.
 */
type SkillStatus = 'approved' | 'new' | 'flagged' | 'changed' | 'revoked';

export function skillStatus(skill: Skill, pins: SkillPins): SkillStatus {
  const check = pins.check(skill.name, skill.fingerprint);
  if (check === 'new' && hiddenContentInSkill(skill).length > 0) return 'flagged';
  return check;
}
