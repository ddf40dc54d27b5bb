/**
 * What a person needs to judge a URL a server asks them to open: the whole URL, the domain it really leads to,
 * and what about it could mislead (a Punycode domain that imitates a familiar one, a user name before `@`, an IP
 * address, no encryption). Parsing only: nothing is fetched or resolved.
 */
import { isIP } from 'node:net';
import { domainToUnicode } from 'node:url';

export interface DescribedUrl {
  /** The URL exactly as the server sent it. */
  original: string;
  /** The normalised URL that would be opened; undefined when it does not parse. */
  href?: string;
  /** `https:`, `http:` … */
  protocol?: string;
  /** The host the URL leads to, as the URL carries it (Punycode stays Punycode). */
  hostname?: string;
  /** The hostname in Unicode, when it differs from `hostname` (an `xn--` domain). */
  unicodeHostname?: string;
  /** Whether the host may open it: only `http:` and `https:` URLs. */
  openable: boolean;
  /** Sentences, each a reason for caution. */
  warnings: string[];
}

const OPENABLE_PROTOCOLS = new Set(['https:', 'http:']);

export function describeUrl(text: string): DescribedUrl {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { original: text, openable: false, warnings: ['This is not a valid URL; it cannot be opened.'] };
  }
  const warnings: string[] = [];
  const hostname = url.hostname;
  const bareHostname = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  const unicode = hostname === '' || isIP(bareHostname) !== 0 ? hostname : domainToUnicode(hostname);
  const isPunycode = hostname.split('.').some((label) => label.toLowerCase().startsWith('xn--'));
  if (isPunycode) {
    warnings.push(
      `The domain is written in Punycode (${hostname}); it stands for "${unicode}", whose letters may imitate a familiar domain.`,
    );
  }
  if (url.username !== '' || url.password !== '') {
    warnings.push(
      `The URL starts with a user name before "@"; it really leads to ${hostname}, not to "${decodeURIComponent(url.username)}".`,
    );
  }
  if (isIP(bareHostname) !== 0) warnings.push(`The host is an IP address (${hostname}), not a domain name.`);
  const openable = OPENABLE_PROTOCOLS.has(url.protocol);
  if (!openable) warnings.push(`Only http and https URLs can be opened; this one is ${url.protocol}.`);
  else if (url.protocol === 'http:') warnings.push('The URL is not https: the page would be sent unencrypted.');
  return {
    original: text,
    href: url.href,
    protocol: url.protocol,
    hostname,
    ...(unicode !== hostname ? { unicodeHostname: unicode } : {}),
    openable,
    warnings,
  };
}

/**
 * The URL with its hostname marked by `mark` (e.g. bold and underlined on a terminal), so the domain stands out
 * from paths and query strings built to look like another site.
 */
export function highlightHostname(described: DescribedUrl, mark: (hostname: string) => string): string {
  const { href, hostname } = described;
  if (href === undefined || hostname === undefined || hostname === '') return described.href ?? described.original;
  const start = href.indexOf('//') + 2;
  const at = href.indexOf('@', start);
  const hostStart = at !== -1 && at < href.indexOf('/', start) ? at + 1 : start;
  const index = href.indexOf(hostname, hostStart);
  if (index === -1) return href;
  return `${href.slice(0, index)}${mark(hostname)}${href.slice(index + hostname.length)}`;
}
