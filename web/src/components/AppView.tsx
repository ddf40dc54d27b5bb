/**
 * An MCP Apps view, rendered for one call of its tool. The host reads and checks the view's resource (through the
 * API), the sandbox origin serves it inside its proxy, and `AppBridge` drives it: initialize with the host context
 * (theme, locale, display mode, container size), the call's input and result, cancellation, size changes, and a
 * teardown before the view is removed. What the view asks of the host goes through the host's duties: its tool
 * calls through the API (consent, pinning, bounds, audit), its messages and model-context updates shown here as
 * text and bounded, links opened only after the user says so. No device permission is granted to any view.
 */
import type { CallToolResult } from '@modelcontextprotocol/client';
import { AppBridge, type McpUiHostContext } from '@modelcontextprotocol/ext-apps/app-bridge';
import { useEffect, useRef, useState } from 'react';
import { showDirectionControls } from '../../../src/text/direction-controls';
import type { AppViewInfo, ViewCallView } from '../../../src/web/api-types';
import { postJson } from '../api';
import { registerView, TEARDOWN_WAIT_MS } from '../app-views/live-views';
import { SandboxTransport } from '../app-views/sandbox-transport';
import { saveFiles } from '../app-views/save-files';
import { filesOfRequest, type ViewFile } from '../app-views/view-downloads';
import { errorMessage } from '../error-message';
import { showName } from '../hidden-characters';
import { Notes } from './Notes';

const MAX_NOTICE_CHARS = 4_000;
const MAX_NOTICES = 50;
const MIN_HEIGHT = 60;
const MAX_HEIGHT = 1_200;
const PARTIAL_INPUT_EVERY_MS = 100;

interface Notice {
  kind: 'message' | 'model-context' | 'log' | 'link' | 'download';
  text: string;
}

interface LinkQuestion {
  url: URL;
  answer: (open: boolean) => void;
}

interface DownloadQuestion {
  files: ViewFile[];
  answer: (save: boolean) => void;
}

type DisplayMode = 'inline' | 'fullscreen' | 'pip';
const DISPLAY_MODES: DisplayMode[] = ['inline', 'fullscreen', 'pip'];

function bounded(text: string): string {
  return text.length <= MAX_NOTICE_CHARS
    ? text
    : `${text.slice(0, MAX_NOTICE_CHARS)} … (${text.length - MAX_NOTICE_CHARS} more characters not shown)`;
}

function textOf(content: unknown, structured?: unknown): string {
  const blocks = Array.isArray(content) ? content.slice(0, 20) : [];
  const parts = blocks.map((block: { type?: unknown; text?: unknown }) =>
    block?.type === 'text' && typeof block.text === 'string' ? block.text : `[${String(block?.type)}]`,
  );
  if (structured !== undefined) parts.push(JSON.stringify(structured));
  return bounded(parts.join('\n'));
}

function theme(): 'light' | 'dark' {
  return window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

export interface AppViewProps {
  /** The namespaced tool whose view this is. */
  tool: string;
  /** The arguments so far, while the model still streams them. */
  partialInput?: Record<string, unknown>;
  input?: Record<string, unknown>;
  /** The result as the server sent it, once the call ended. */
  result?: Record<string, unknown>;
  /** Why the call's input or result will not come: it was cancelled, or they were too large to send the page. */
  cancelled?: string;
}

export function AppView({ tool, partialInput, input, result, cancelled }: AppViewProps) {
  const container = useRef<HTMLDivElement>(null);
  const bridgeRef = useRef<AppBridge>(undefined);
  const sent = useRef({ initialized: false, input: false, result: false, cancelled: false, partial: '' });
  const partialTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const latest = useRef({ partialInput, input, result, cancelled });
  latest.current = { partialInput, input, result, cancelled };
  const [info, setInfo] = useState<AppViewInfo>();
  const [error, setError] = useState<string>();
  const [notices, setNotices] = useState<Notice[]>([]);
  // What the view's own calls warned of, each once: the person's to read, not the view's (see ViewCallView).
  const [warnings, setWarnings] = useState<string[]>([]);
  const [link, setLink] = useState<LinkQuestion>();
  const [download, setDownload] = useState<DownloadQuestion>();
  const [mode, setMode] = useState<DisplayMode>('inline');
  const modeRef = useRef<DisplayMode>('inline');
  /** Set by the mounted view: changes the display mode and tells the view. */
  const changeMode = useRef<(next: DisplayMode) => void>(() => undefined);
  const [closed, setClosed] = useState(false);

  const deliver = () => {
    const bridge = bridgeRef.current;
    const state = sent.current;
    if (bridge === undefined || !state.initialized) return;
    const now = latest.current;
    // Partial input only before the whole input (none once told the call will not go on), at most every
    // PARTIAL_INPUT_EVERY_MS, and only when it changed.
    if (
      !state.input &&
      now.input === undefined &&
      now.cancelled === undefined &&
      now.partialInput !== undefined &&
      partialTimer.current === undefined
    ) {
      const text = JSON.stringify(now.partialInput);
      if (text !== state.partial) {
        state.partial = text;
        void bridge.sendToolInputPartial({ arguments: now.partialInput });
        partialTimer.current = setTimeout(() => {
          partialTimer.current = undefined;
          deliver();
        }, PARTIAL_INPUT_EVERY_MS);
      }
    }
    if (!state.input && now.input !== undefined) {
      state.input = true;
      void bridge.sendToolInput({ arguments: now.input });
    }
    if (!state.result && now.result !== undefined) {
      state.result = true;
      void bridge.sendToolResult(now.result as CallToolResult);
    }
    if (!state.cancelled && now.cancelled !== undefined) {
      state.cancelled = true;
      void bridge.sendToolCancelled({ reason: now.cancelled });
    }
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: deliver reads the latest props through a ref.
  useEffect(deliver, [partialInput, input, result, cancelled]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: one view per mount; the tool never changes under it.
  useEffect(() => {
    let live = true;
    let frame: HTMLIFrameElement | undefined;
    let bridge: AppBridge | undefined;
    let opened: AppViewInfo | undefined;
    let torn = false;
    // One question (a link, a download) at a time: a second request while one waits is refused, so what the user
    // answers is never swapped under the pointer for something else.
    let asking = false;
    let unregister: () => void = () => undefined;
    const note = (notice: Notice) =>
      setNotices((old) => [...old, { ...notice, text: bounded(notice.text) }].slice(-MAX_NOTICES));

    const close = async (answered: boolean) => {
      unregister();
      await bridge?.close().catch(() => undefined);
      if (opened !== undefined) void postJson(`/api/views/${opened.viewId}/close`, { answered }).catch(() => undefined);
    };
    const teardown = async () => {
      if (torn) return;
      torn = true;
      let answered = false;
      if (bridge !== undefined && sent.current.initialized) {
        answered = await Promise.race([
          bridge.teardownResource({}).then(
            () => true,
            () => false,
          ),
          new Promise<boolean>((resolve) => setTimeout(() => resolve(false), TEARDOWN_WAIT_MS)),
        ]);
      }
      frame?.remove();
      await close(answered);
    };

    const hostContext = (): McpUiHostContext => ({
      theme: theme(),
      locale: navigator.language,
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      displayMode: modeRef.current,
      availableDisplayModes: DISPLAY_MODES,
      containerDimensions: { width: container.current?.clientWidth ?? 600, maxHeight: MAX_HEIGHT },
      platform: 'web',
      userAgent: 'mcp-host',
      ...(opened === undefined ? {} : { toolInfo: { tool: opened.toolDefinition as never } }),
    });

    void (async () => {
      try {
        opened = await postJson<AppViewInfo>('/api/views/open', { tool });
      } catch (failure) {
        if (live) setError(errorMessage(failure));
        return;
      }
      if (!live || container.current === null) {
        void postJson(`/api/views/${opened.viewId}/close`, { answered: false }).catch(() => undefined);
        return;
      }
      setInfo(opened);
      const viewId = opened.viewId;
      frame = document.createElement('iframe');
      // The proxy runs on the sandbox origin, so same-origin there reaches nothing of this page's.
      frame.setAttribute('sandbox', 'allow-scripts allow-same-origin');
      frame.setAttribute('allow', "camera 'none'; microphone 'none'; geolocation 'none'; clipboard-write 'none'");
      frame.setAttribute('referrerpolicy', 'no-referrer');
      frame.title = `View of ${showName(tool)}`;
      frame.className = `app-view-frame${opened.prefersBorder ? ' bordered' : ''}`;
      frame.style.height = `${MIN_HEIGHT * 3}px`;
      container.current.append(frame);

      bridge = new AppBridge(
        null,
        { name: 'mcp-host', version: '0.1.0' },
        {
          openLinks: {},
          downloadFile: {},
          serverResources: {},
          serverTools: {},
          logging: {},
          message: { text: {} },
          updateModelContext: { text: {}, structuredContent: {} },
          sandbox: { permissions: {}, csp: {} },
        },
        { hostContext: hostContext() },
      );
      bridgeRef.current = bridge;
      bridge.oninitialized = () => {
        sent.current.initialized = true;
        deliver();
      };
      bridge.onsizechange = ({ height }) => {
        if (frame !== undefined && typeof height === 'number' && Number.isFinite(height)) {
          frame.style.height = `${Math.min(MAX_HEIGHT, Math.max(MIN_HEIGHT, Math.ceil(height)))}px`;
        }
      };
      bridge.oncalltool = async (params) => {
        const answer = await postJson<ViewCallView>(`/api/views/${viewId}/call`, {
          name: params.name,
          arguments: params.arguments ?? {},
        });
        const warned = (answer.warnings ?? []).map(bounded);
        if (live && warned.length > 0) {
          setWarnings((old) => [...old, ...warned.filter((text) => !old.includes(text))].slice(-MAX_NOTICES));
        }
        return answer.result as CallToolResult;
      };
      bridge.onmessage = async (params) => {
        note({ kind: 'message', text: textOf(params.content) });
        return {};
      };
      bridge.onupdatemodelcontext = async (params) => {
        note({ kind: 'model-context', text: textOf(params.content, params.structuredContent) });
        return {};
      };
      bridge.onloggingmessage = (params) => {
        note({
          kind: 'log',
          text: `${params.level}: ${typeof params.data === 'string' ? params.data : JSON.stringify(params.data)}`,
        });
      };
      bridge.onopenlink = async ({ url }) => {
        let parsed: URL;
        try {
          parsed = new URL(url);
        } catch {
          return { isError: true };
        }
        if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return { isError: true };
        if (asking) {
          note({ kind: 'link', text: `Refused ${parsed.href}: another question of the view's is waiting` });
          return { isError: true };
        }
        asking = true;
        const open = await new Promise<boolean>((answer) => setLink({ url: parsed, answer }));
        asking = false;
        setLink(undefined);
        note({ kind: 'link', text: `${open ? 'Opened' : 'Did not open'} ${parsed.href}` });
        if (!open) return { isError: true };
        window.open(parsed.href, '_blank', 'noopener,noreferrer');
        return {};
      };
      changeMode.current = (next) => {
        modeRef.current = next;
        if (live) setMode(next);
        bridge?.setHostContext(hostContext());
      };
      bridge.onrequestdisplaymode = async ({ mode: asked }) => {
        if (DISPLAY_MODES.includes(asked as DisplayMode)) changeMode.current(asked as DisplayMode);
        return { mode: modeRef.current };
      };
      bridge.ondownloadfile = async ({ contents }) => {
        const files = filesOfRequest(contents);
        if (typeof files === 'string') {
          note({ kind: 'download', text: `Refused a download: ${files}` });
          return { isError: true };
        }
        if (asking) {
          note({ kind: 'download', text: "Refused a download: another question of the view's is waiting" });
          return { isError: true };
        }
        asking = true;
        const save = await new Promise<boolean>((answer) => setDownload({ files, answer }));
        asking = false;
        setDownload(undefined);
        const names = files.map((file) => file.name).join(', ');
        note({ kind: 'download', text: `${save ? 'Saved' : 'Did not save'} ${names}` });
        if (!save) return { isError: true };
        saveFiles(files);
        return {};
      };
      // Its own server's resources only: the host reads them by the view's id, never by a server the view names.
      bridge.onreadresource = async ({ uri }) =>
        (await postJson<Record<string, unknown>>(`/api/views/${viewId}/resources/read`, { uri })) as never;
      bridge.onrequestteardown = () => {
        void teardown().then(() => {
          if (live) setClosed(true);
        });
      };
      await bridge.connect(new SandboxTransport(frame.contentWindow!, opened.sandboxOrigin));
      unregister = registerView(teardown);
      frame.src = `${opened.proxyUrl}?parent=${encodeURIComponent(window.location.origin)}`;
    })();

    const resized = new ResizeObserver(() => bridge?.setHostContext(hostContext()));
    if (container.current !== null) resized.observe(container.current);
    const scheme = window.matchMedia('(prefers-color-scheme: dark)');
    const onScheme = () => bridge?.setHostContext(hostContext());
    scheme.addEventListener('change', onScheme);
    return () => {
      live = false;
      clearTimeout(partialTimer.current);
      resized.disconnect();
      scheme.removeEventListener('change', onScheme);
      // Normally torn down already (before navigation); otherwise now, as far as a removed frame allows.
      void teardown();
    };
  }, []);

  useEffect(() => {
    if (mode === 'inline') return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') changeMode.current('inline');
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [mode]);

  return (
    <section className="app-view" aria-label={`View of ${showName(tool)}`}>
      <div className="app-view-head">
        <span className="badge">interactive view</span>{' '}
        <span className="muted">{showName(info?.resourceUri ?? '')}</span>
        {info !== undefined && (
          <details className="inline">
            <summary>Sandbox</summary>
            <dl className="facts">
              <dt>Served from</dt>
              <dd>{info.sandboxOrigin} (another origin than this page)</dd>
              <dt>SHA-256</dt>
              <dd>{info.sha256}</dd>
              <dt>May connect to</dt>
              <dd>{showDirectionControls(info.csp.connect.join(' ')) || 'nothing'}</dd>
              <dt>May load from</dt>
              <dd>{showDirectionControls(info.csp.resource.join(' ')) || 'only itself (inline)'}</dd>
              {info.csp.refused.length > 0 && (
                <>
                  <dt>Refused</dt>
                  <dd>{showDirectionControls(info.csp.refused.join('; '))}</dd>
                </>
              )}
              <dt>Device permissions</dt>
              <dd>
                none granted
                {info.permissionsDeclared.length > 0 &&
                  showDirectionControls(` (asked for: ${info.permissionsDeclared.join(', ')})`)}
              </dd>
            </dl>
          </details>
        )}
      </div>
      {error !== undefined && (
        <p className="error" role="alert">
          The view could not be shown: {showDirectionControls(error)}
        </p>
      )}
      {closed && <p className="muted">The view closed itself.</p>}
      {mode !== 'inline' && (
        <div className={`app-view-bar ${mode}`} role="toolbar" aria-label="Display mode">
          <span>
            {mode === 'fullscreen' ? 'Full screen' : 'Picture in picture'}: view of <strong>{showName(tool)}</strong>
          </span>
          <button type="button" onClick={() => changeMode.current('inline')}>
            Back to the chat
          </button>
        </div>
      )}
      <div ref={container} className={`app-view-container ${mode}`} />
      {link !== undefined && (
        <div role="dialog" aria-label="The app asks to open a link" className="inline-dialog">
          <p>
            The view asks to open a link to <strong className="domain">{link.url.host}</strong>
          </p>
          <p className="muted">{link.url.href}</p>
          <div className="actions">
            <button type="button" onClick={() => link.answer(true)}>
              Open link
            </button>
            <button type="button" onClick={() => link.answer(false)}>
              Don't open
            </button>
          </div>
        </div>
      )}
      {download !== undefined && (
        <div role="dialog" aria-label="The app asks to save files" className="inline-dialog">
          <p>
            The view asks to save {download.files.length === 1 ? 'a file' : `${download.files.length} files`} to your
            downloads (not opened):
          </p>
          <ul>
            {download.files.map((file, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the list never changes while shown.
              <li key={index}>
                <strong>{file.name}</strong>{' '}
                <span className="muted">
                  ({showDirectionControls(file.mimeType)}, {file.bytes.length} bytes)
                </span>
              </li>
            ))}
          </ul>
          <div className="actions">
            <button type="button" onClick={() => download.answer(true)}>
              Save
            </button>
            <button type="button" onClick={() => download.answer(false)}>
              Don't save
            </button>
          </div>
        </div>
      )}
      <Notes label="Warnings" notes={warnings} className="notes warnings" />
      {notices.length > 0 && (
        <ul className="app-notices" aria-label={`What the view of ${showName(tool)} said`}>
          {notices.map((notice, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: notices are only ever appended.
            <li key={index} className="app-notice">
              <span className="badge">
                {notice.kind === 'message'
                  ? 'message for the chat (not sent to the model)'
                  : notice.kind === 'model-context'
                    ? 'context for the model (not sent to the model)'
                    : notice.kind}
              </span>{' '}
              <span className="text-block">{showDirectionControls(notice.text)}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
