/** The Agent Skills the host sees: offered, withheld (why, and the command to review it), unreadable; and which
 * skills the current conversation loaded. Everything here is rendered as text. */
import { useState } from 'react';
import { showDirectionControls } from '../../../src/text/direction-controls';
import type { SkillsView, SkillView } from '../../../src/web/api-types';
import { useJson, useLiveEvents } from '../api';
import { showHiddenCharacters, showName } from '../hidden-characters';

function SkillLine({ skill, withheld = false }: { skill: SkillView; withheld?: boolean }) {
  return (
    <>
      <h3>
        {showName(skill.name)}{' '}
        <span className="badge">
          {skill.source}: {showDirectionControls(skill.folder)}
        </span>
      </h3>
      <p>{showDirectionControls(skill.description)}</p>
      <p className="muted">
        ~{skill.listingTokens} tokens in the system prompt{withheld ? ' once approved' : ''}; ~{skill.bodyTokens} tokens
        when loaded
      </p>
    </>
  );
}

export function SkillsPage() {
  const [tick, setTick] = useState(0);
  const { data, error } = useJson<SkillsView>('/api/skills', tick);
  useLiveEvents((event) => {
    if (event.type === 'chat' && event.chat.event.type === 'turn-done') setTick((value) => value + 1);
  });
  if (error !== undefined) return <p className="error">{showDirectionControls(error)}</p>;
  if (data === undefined) return <p>Loading…</p>;
  return (
    <>
      <section className="card" aria-labelledby="skills-loaded">
        <h2 id="skills-loaded">Loaded by the current conversation</h2>
        {data.loaded.length === 0 ? (
          <p>None yet.</p>
        ) : (
          <ul aria-label="Loaded skills">
            {data.loaded.map((name) => (
              <li key={name}>{showName(name)}</li>
            ))}
          </ul>
        )}
      </section>
      <section className="card" aria-labelledby="skills-offered">
        <h2 id="skills-offered">Offered ({data.offered.length})</h2>
        {data.offered.length === 0 && <p>No skill is offered.</p>}
        {data.offered.map((skill) => (
          <article key={skill.name} aria-label={`Offered skill ${showName(skill.name)}`}>
            <SkillLine skill={skill} />
          </article>
        ))}
      </section>
      {data.withheld.length > 0 && (
        <section className="card withheld-skills" aria-labelledby="skills-withheld">
          <h2 id="skills-withheld">Withheld ({data.withheld.length})</h2>
          {data.withheld.map((skill) => (
            <article key={skill.name} aria-label={`Withheld skill ${showName(skill.name)}`}>
              <SkillLine skill={skill} withheld />
              {/* It names the same command; no approve command, as this page shows nothing of the skill to review. */}
              <p className="warning">{showHiddenCharacters(skill.reason, false)}</p>
              <p>
                {/* Shell-quoted already, its own backslashes escapes: only what the quoting left raw is escaped. */}
                Review with: <code>{showHiddenCharacters(skill.reviewCommand, true)}</code>
              </p>
            </article>
          ))}
        </section>
      )}
      {data.problems.length > 0 && (
        <section className="card" aria-labelledby="skills-problems">
          <h2 id="skills-problems">Could not be read ({data.problems.length})</h2>
          {data.problems.map((problem) => (
            <article key={problem.folder} aria-label={`Unreadable skill ${showDirectionControls(problem.folder)}`}>
              <p className="error">{showDirectionControls(problem.message)}</p>
            </article>
          ))}
        </section>
      )}
    </>
  );
}
