/**
 * The Content-Security-Policy an MCP Apps view runs under, built from what its resource declares in `_meta.ui.csp`
 * (the origins it may connect to, load from, frame and use as base). Nothing declared means nothing allowed beyond
 * the view's own inline code and `data:` media. A declared origin is taken only when it is a plain origin (scheme,
 * host, optional port, optional `*.` subdomain wildcard); loopback names are refused, `.localhost` ones and wildcards
 * over numbers that match 127.0.0.1 too, so a view cannot name this machine to reach the UI, its sandbox or another
 * service here (a public name that resolves to 127.0.0.1 is not known from its text: the UI and the sandbox answer
 * only their own `Host`), and anything else (quotes, keywords, paths, separators) is dropped and reported.
 */

const MAX_DOMAINS = 32;
const ORIGIN = /^(https|wss|http|ws):\/\/(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:\d{1,5})?$/i;
/** This machine's names: browsers take `localhost` and every name under it to loopback. */
const LOOPBACK_HOST = /^(([a-z0-9*-]+\.)*localhost|127(\.\d{1,3}){3}|\[::1\]|0\.0\.0\.0)$/i;
/** A wildcard over numbers (`*.0.0.1`, `*.1`) matches IP addresses, 127.0.0.1 among them. */
const WILDCARD_OVER_NUMBERS = /^\*(\.\d+)+$/;

interface DeclaredCsp {
  connectDomains?: unknown;
  resourceDomains?: unknown;
  frameDomains?: unknown;
  baseUriDomains?: unknown;
}

interface ViewCsp {
  /** The header value. */
  policy: string;
  /** The origins taken, per kind, as the page shows them. */
  allowed: { connect: string[]; resource: string[]; frame: string[]; baseUri: string[] };
  /** Declared entries that were not taken, and why. */
  refused: string[];
}

function origins(value: unknown, kind: string, refused: string[]): string[] {
  if (!Array.isArray(value)) return [];
  const taken: string[] = [];
  for (const entry of value.slice(0, MAX_DOMAINS)) {
    const text = typeof entry === 'string' ? entry.trim() : '';
    const host = /^[a-z]+:\/\/([^/:]+|\[[^\]]+\])/i.exec(text)?.[1] ?? '';
    if (!ORIGIN.test(text)) {
      refused.push(`${kind}: ${JSON.stringify(String(entry).slice(0, 100))} is not an origin`);
    } else if (LOOPBACK_HOST.test(host) || WILDCARD_OVER_NUMBERS.test(host)) {
      refused.push(`${kind}: ${text} is this machine (never allowed to a view)`);
    } else taken.push(text.toLowerCase());
  }
  if (value.length > MAX_DOMAINS) refused.push(`${kind}: only the first ${MAX_DOMAINS} entries are read`);
  return taken;
}

export function buildViewCsp(declared: DeclaredCsp | undefined): ViewCsp {
  const refused: string[] = [];
  const connect = origins(declared?.connectDomains, 'connectDomains', refused);
  const resource = origins(declared?.resourceDomains, 'resourceDomains', refused);
  const frame = origins(declared?.frameDomains, 'frameDomains', refused);
  const baseUri = origins(declared?.baseUriDomains, 'baseUriDomains', refused);
  const list = (values: string[], fallback: string) => (values.length === 0 ? fallback : values.join(' '));
  const withResources = (base: string) => [base, ...resource].join(' ');
  const policy = [
    "default-src 'none'",
    withResources("script-src 'unsafe-inline'"),
    withResources("style-src 'unsafe-inline'"),
    withResources('img-src data: blob:'),
    withResources('media-src data: blob:'),
    withResources('font-src data:'),
    `connect-src ${list(connect, "'none'")}`,
    `frame-src ${list(frame, "'none'")}`,
    `base-uri ${list(baseUri, "'none'")}`,
    "form-action 'none'",
    "object-src 'none'",
    "worker-src 'none'",
  ].join('; ');
  return { policy, allowed: { connect, resource, frame, baseUri }, refused };
}
