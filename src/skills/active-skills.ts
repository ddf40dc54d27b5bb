/**
 * Which skills a run has loaded, and what their `allowed-tools` let run while they are active. A skill narrows and
 * never widens: a tool it names still goes through the rules, trust and pinning like any other, and a tool it does
 * not name is refused while it is active. With several skills active, a tool named by any of them may run; a skill
 * without `allowed-tools` narrows nothing. The host's own read-only tools (loading skills, reading stored results
 * and resources) are never narrowed away. A skill stays active until its run ends.
 */

import { matchesGlob } from '../policy/glob.js';
import type { Skill } from './discover-skills.js';

interface SkillNarrowing {
  allowed: boolean;
  /** For the model and the audit log, when refused. */
  reason?: string;
}

export class ActiveSkills {
  private readonly byRun = new Map<string, Map<string, Skill>>();

  activate(runId: string, skill: Skill): void {
    let skills = this.byRun.get(runId);
    if (skills === undefined) {
      skills = new Map();
      this.byRun.set(runId, skills);
    }
    skills.set(skill.name, skill);
  }

  active(runId: string): Skill[] {
    return [...(this.byRun.get(runId)?.values() ?? [])];
  }

  end(runId: string): void {
    this.byRun.delete(runId);
  }

  /** `name`: the namespaced tool name; `originalName`: the server's own name for it (either may be listed). */
  check(runId: string, name: string, originalName: string): SkillNarrowing {
    const narrowing = this.active(runId).filter((skill) => skill.allowedTools !== undefined);
    if (narrowing.length === 0) return { allowed: true };
    const named = narrowing.some((skill) =>
      skill.allowedTools!.some((pattern) => matchesGlob(pattern, name) || matchesGlob(pattern, originalName)),
    );
    if (named) return { allowed: true };
    const lists = narrowing.map((skill) => `${skill.name}: ${skill.allowedTools!.join(' ') || '(none)'}`).join('; ');
    return {
      allowed: false,
      reason: `Not allowed while skill ${narrowing.map((skill) => `"${skill.name}"`).join(', ')} ${narrowing.length === 1 ? 'is' : 'are'} active: its allowed-tools do not name ${name} (${lists}).`,
    };
  }
}
