/** The app's frame: navigation, the host's state, the approval dialog over every page, and the current page. */
import { useEffect, useState } from 'react';
import { showDirectionControls } from '../../src/text/direction-controls';
import { useHostState } from './api';
import { teardownViews } from './app-views/live-views';
import { ApprovalDialog } from './components/ApprovalDialog';
import { AuditPage } from './pages/AuditPage';
import { ChatPage } from './pages/ChatPage';
import { ResourcesPage } from './pages/ResourcesPage';
import { ServersPage } from './pages/ServersPage';
import { SkillsPage } from './pages/SkillsPage';
import { ToolsPage } from './pages/ToolsPage';
import { TrustPage } from './pages/TrustPage';

const PAGES = [
  { path: 'servers', label: 'Servers', Page: ServersPage },
  { path: 'tools', label: 'Tools', Page: ToolsPage },
  { path: 'resources', label: 'Resources & prompts', Page: ResourcesPage },
  { path: 'chat', label: 'Chat', Page: ChatPage },
  { path: 'skills', label: 'Skills', Page: SkillsPage },
  { path: 'trust', label: 'Trust', Page: TrustPage },
  { path: 'audit', label: 'Audit', Page: AuditPage },
] as const;

function currentPath(): string {
  return window.location.hash.replace(/^#\/?/, '').split('?')[0] || 'servers';
}

export function App() {
  const [path, setPath] = useState(currentPath);
  const state = useHostState();
  useEffect(() => {
    // Views on the page are torn down (and may answer) before the page holding them goes.
    const onHash = () => void teardownViews().then(() => setPath(currentPath()));
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  const page = PAGES.find((candidate) => candidate.path === path) ?? PAGES[0];
  useEffect(() => {
    document.title = `${page.label} · mcp-host`;
  }, [page]);
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="top">
        <span className="brand">mcp-host</span>
        <nav aria-label="Pages">
          <ul>
            {PAGES.map((candidate) => (
              <li key={candidate.path}>
                <a href={`#/${candidate.path}`} aria-current={candidate.path === page.path ? 'page' : undefined}>
                  {candidate.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <span className={`host-state host-${state.phase}`} role="status">
          {state.phase === 'ready'
            ? `ready${state.model === undefined ? '' : ` · ${showDirectionControls(state.model)}`}`
            : state.phase === 'starting'
              ? 'starting… (questions it asks appear here)'
              : `could not start: ${showDirectionControls(state.error ?? '')}`}
        </span>
      </header>
      <main id="main" tabIndex={-1}>
        <h1>{page.label}</h1>
        {state.phase === 'ready' ? (
          <page.Page />
        ) : state.phase === 'starting' ? (
          <p>
            The host is starting its servers. A question it asks (a changed tool, a changed server) opens as a dialog.
          </p>
        ) : (
          <p className="error">The host could not start: {showDirectionControls(state.error ?? '')}</p>
        )}
      </main>
      <ApprovalDialog />
    </>
  );
}
