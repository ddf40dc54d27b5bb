/**
 * Skills and instructions, wired into one host: skills are discovered and reviewed against their pins when the host
 * opens (first sight pinned, changed or flagged ones withheld and reported), the host's skill tools are offered when
 * any skill is, the system prompt is composed at the start of each run (instructions and memory read again, so an
 * edit or `/remember` counts from the next run on), and an active skill's `allowed-tools` narrow what may run.
 */

import path from 'node:path';
import type { AuditRecorder } from '../audit/audit-recorder.js';
import type { CatalogEntry } from '../catalog/tool-catalog.js';
import type { ResultBudget } from '../client-features/resource-host-tools.js';
import type { ApprovalsPlace } from '../config/trust-commands.js';
import type { HostConfig } from '../config/types.js';
import { resolveUserConfigDir } from '../config/user-config-dir.js';
import type { HostToolHandler } from '../loop/execute-tool-call.js';
import type { ToolCallContext } from '../loop/tool-call-types.js';
import type { Authorization } from '../policy/authorize-tool-call.js';
import { ActiveSkills } from '../skills/active-skills.js';
import { type ComposedSystemPrompt, composeSystemPrompt } from '../skills/compose-system-prompt.js';
import { discoverSkills, type Skill } from '../skills/discover-skills.js';
import { withoutHiddenCharacters } from '../skills/hidden-characters.js';
import {
  DEFAULT_MAX_INSTRUCTION_TOKENS,
  loadInstructions,
  projectInstructionsWithheld,
  unapprovedInstructionsNote,
} from '../skills/project-instructions.js';
import { reviewSkills } from '../skills/review-skills.js';
import type { ServerInstructions } from '../skills/server-instructions.js';
import { pathInMessage } from '../skills/skill-error.js';
import { type SkillCheck, SkillPins } from '../skills/skill-pins.js';
import { skillSources, unapprovedProjectSkillsNote } from '../skills/skill-sources.js';
import { createSkillToolHandlers, skillToolDefinitions } from '../skills/skill-tools.js';
import { skillsListing } from '../skills/skills-listing.js';
import { HOST_TOOLS_SERVER } from './host-tools-server.js';
import type { Host } from './host-types.js';

interface HostSkillsOptions {
  config: HostConfig;
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  stateDir: string;
  /** Where the pins are kept, named in the approve commands of withheld skills. */
  approvals: ApprovalsPlace;
  /** The caller's own system text, first in the prompt. */
  system?: string;
  /** The connected servers' instructions that may go into the prompt, bounded. */
  serverInstructions?: () => readonly ServerInstructions[];
  /** False: no instructions or memory (`--no-instructions`); the config's `instructions: false` does the same. */
  instructions?: boolean;
  onDiagnostic: (message: string) => void;
  audit: () => AuditRecorder;
  /** What the skill tools return is fitted into this, as any tool result is (see client-features/stored-result-budget.ts). */
  budget: ResultBudget;
}

export interface HostSkills {
  /** The skills offered to the model, those withheld (and why), and those that could not be read. */
  overview: Host['skills'];
  /** `load_skill` and `read_skill_file`, when any skill is offered. */
  entries: CatalogEntry[];
  handlers: ReadonlyMap<string, HostToolHandler>;
  active: ActiveSkills;
  /** The project folder: the config's folder, or the working folder without a config. */
  projectFolder: string;
  systemPrompt(): ComposedSystemPrompt;
  /** A refusal when an active skill's `allowed-tools` do not name the tool; undefined when it may go on. */
  narrow(
    entry: CatalogEntry,
    args: Record<string, unknown>,
    context: ToolCallContext,
    isHostTool: boolean,
  ): Promise<Authorization | undefined>;
  /** Records the skill pins made and the skills withheld when the host opened. */
  recordReview(): Promise<void>;
}

export function openHostSkills(options: HostSkillsOptions): HostSkills {
  const { config, cwd, env } = options;
  const projectFolder = config.file === undefined ? path.resolve(cwd) : path.dirname(config.file);
  const userConfigDir = resolveUserConfigDir(env, cwd);
  const discovered = discoverSkills(skillSources(config, { cwd, env }));
  const unapproved = unapprovedProjectSkillsNote(config, options.approvals);
  if (unapproved !== undefined) options.onDiagnostic(unapproved);
  for (const problem of discovered.problems) options.onDiagnostic(`skill not used: ${problem.message}`);
  for (const warning of discovered.warnings) options.onDiagnostic(warning);
  const pins = SkillPins.inStateDir(options.stateDir, { scope: config.file ?? '' });
  const review = reviewSkills(discovered.skills, pins, options.approvals);
  for (const withheld of review.withheld) options.onDiagnostic(withheld.message);
  for (const skill of review.offered) {
    const { removed } = withoutHiddenCharacters(skill.body);
    if (removed === undefined) continue;
    options.onDiagnostic(
      `skill "${skill.name}": ${pathInMessage(skill.file)} holds characters no editor shows; load_skill gives the model its body without them (${removed})`,
    );
  }

  const active = new ActiveSkills();
  const offered = new Map<string, Skill>(review.offered.map((skill) => [skill.name, skill]));
  const withheld = new Map(review.withheld.map((entry) => [entry.skill.name, entry.message]));
  const tools = createSkillToolHandlers({
    offered,
    withheld,
    active,
    withdrawn: (skill) => {
      let status: SkillCheck;
      try {
        status = pins.check(skill.name, skill.fingerprint);
      } catch (error) {
        return `skill "${skill.name}" cannot be checked against its pin: ${(error as Error).message}`;
      }
      if (status === 'approved') return undefined;
      const what = { revoked: 'was revoked', changed: 'was approved again with other files', new: 'lost its pin' }[
        status
      ];
      return `skill "${skill.name}" ${what} since this session started`;
    },
  });
  const handlers = new Map<string, HostToolHandler>();
  const entries: CatalogEntry[] = [];
  if (offered.size > 0) {
    for (const definition of skillToolDefinitions) {
      entries.push({
        name: definition.name,
        server: HOST_TOOLS_SERVER,
        tool: {
          name: definition.name,
          description: definition.description,
          inputSchema: definition.inputSchema as never,
          annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
        },
      });
      const handle = tools[definition.name as keyof typeof tools];
      handlers.set(definition.name, async (args, context) => {
        const result = handle(args, context.runId);
        return { content: await options.budget([{ type: 'text', text: result.text }]), isError: result.isError };
      });
    }
  }
  const listing = skillsListing(review.offered);
  const useInstructions = options.instructions !== false && config.instructions !== false;
  const userOnly = projectInstructionsWithheld(config);
  if (useInstructions) {
    const note = unapprovedInstructionsNote(config, projectFolder, userConfigDir, options.approvals);
    if (note !== undefined) options.onDiagnostic(note);
  }

  const told = new Set<string>();
  return {
    overview: () => ({ offered: review.offered, withheld: review.withheld, problems: discovered.problems }),
    entries,
    handlers,
    active,
    projectFolder,
    systemPrompt() {
      const instructions = useInstructions
        ? loadInstructions(
            projectFolder,
            userConfigDir,
            config.maxInstructionTokens ?? DEFAULT_MAX_INSTRUCTION_TOKENS,
            { userOnly },
          )
        : { files: [], notes: [] };
      // Read again at each run, the files say the same again: each note is told once.
      for (const note of instructions.notes) {
        if (told.has(note)) continue;
        told.add(note);
        options.onDiagnostic(note);
      }
      return composeSystemPrompt({
        ...(options.system === undefined ? {} : { system: options.system }),
        instructions: instructions.files,
        serverInstructions: options.serverInstructions?.() ?? [],
        skillsListing: listing,
        skillCount: review.offered.length,
      });
    },
    async narrow(entry, _args, context, isHostTool) {
      if (isHostTool) return undefined;
      const check = active.check(context.runId, entry.name, entry.tool.name);
      if (check.allowed) return undefined;
      const reason = check.reason!;
      const authorization: Authorization = {
        allowed: false,
        decision: { action: 'deny', reason, source: 'skill', warnings: [], safeToRetry: false },
        decidedBy: 'skill',
        reason,
        denialMessage: reason,
        warnings: [],
        hiddenContent: [],
      };
      // No approval record: nobody was asked. The call's own record says the skill denied it.
      return authorization;
    },
    async recordReview() {
      for (const skill of review.pinned) {
        await options.audit().trustChange({
          serverName: `skill:${skill.name}`,
          change: 'skill-approved',
          by: 'first-sight',
          detail: `Skill pinned on first sight (${skill.folder}).`,
          fingerprint: skill.fingerprint,
        });
      }
      for (const entry of review.withheld) {
        await options.audit().trustChange({
          serverName: `skill:${entry.skill.name}`,
          change: 'skill-withheld',
          by: 'host',
          detail: entry.message,
          fingerprint: entry.skill.fingerprint,
        });
      }
    },
  };
}
