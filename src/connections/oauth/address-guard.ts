/**
 * Decides whether the host may fetch a URL that a remote server handed it during OAuth (protected-resource
 * metadata, the authorization server's metadata and endpoints, redirects between them). A hostile or compromised
 * server could otherwise point the host at cloud metadata services (169.254.169.254), the user's router or other
 * machines on a private network, and use the host as a proxy into places the server cannot reach itself.
 *
 * The rule: URLs on the configured server's own origin are the user's choice and always allowed. Any other URL is
 * resolved and every address it resolves to is classified: public addresses need `https:`; loopback addresses are
 * allowed only when the server itself is on loopback; private-network addresses only when the server itself is on
 * loopback or a private network; link-local, metadata, unspecified, multicast and reserved addresses never.
 *
 * The check resolves the name before the request, and the request resolves it again: a DNS server that answers
 * differently the second time is not caught here. Node's built-in fetch takes no per-request resolver without a
 * runtime dependency on undici; the check still stops every URL that names such an address directly or resolves
 * to one consistently.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';

export type AddressKind =
  | 'public'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'metadata'
  | 'unspecified'
  | 'multicast'
  | 'reserved';

/** Resolves a host name to every address it has; the default uses the system resolver. */
export type HostLookup = (hostname: string) => Promise<string[]>;

/** Thrown for a refused URL. A `TypeError`, as fetch's own network errors are, so the SDK's OAuth discovery
 * passes it on instead of quietly falling back to another URL. */
export class RefusedUrlError extends TypeError {
  override readonly name = 'RefusedUrlError';
  constructor(
    readonly url: string,
    readonly reason: string,
  ) {
    super(`refused to fetch ${url}: ${reason}`);
  }
}

export interface UrlGuard {
  /** Resolves when `url` may be fetched; rejects with `RefusedUrlError` otherwise. */
  check(url: string | URL): Promise<void>;
}

export interface UrlGuardOptions {
  /** The MCP server's URL as configured by the user. */
  serverUrl: string;
  /** Default: the system resolver (`dns.lookup` with every address). */
  lookup?: HostLookup;
}

const systemLookup: HostLookup = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

export function createUrlGuard(options: UrlGuardOptions): UrlGuard {
  const server = new URL(options.serverUrl);
  const lookup = options.lookup ?? systemLookup;
  let serverKinds: Promise<Set<AddressKind>> | undefined;
  const kindsOfServer = (): Promise<Set<AddressKind>> => {
    serverKinds ??= resolveKinds(server.hostname, lookup).catch(() => new Set<AddressKind>(['public']));
    return serverKinds;
  };

  return {
    async check(input) {
      const url = typeof input === 'string' ? new URL(input) : input;
      if (url.origin === server.origin) return;
      if (url.protocol !== 'https:' && url.protocol !== 'http:') {
        throw new RefusedUrlError(url.href, `only https URLs are fetched during authorization, not ${url.protocol}`);
      }
      let kinds: Set<AddressKind>;
      try {
        kinds = await resolveKinds(url.hostname, lookup);
      } catch (error) {
        const why = error instanceof Error ? error.message : String(error);
        throw new RefusedUrlError(url.href, `its host name could not be resolved (${why})`);
      }
      const own = await kindsOfServer();
      const serverIsLoopback = own.has('loopback');
      const serverIsPrivate = serverIsLoopback || own.has('private');
      for (const kind of kinds) {
        if (kind === 'public') continue;
        if (kind === 'loopback' && serverIsLoopback) continue;
        if (kind === 'private' && serverIsPrivate) continue;
        throw new RefusedUrlError(url.href, describeRefusal(kind));
      }
      const allLocal = [...kinds].every((kind) => kind === 'loopback' || kind === 'private');
      if (url.protocol === 'http:' && !allLocal) {
        throw new RefusedUrlError(url.href, 'authorization endpoints on the internet must use https');
      }
    },
  };
}

function describeRefusal(kind: AddressKind): string {
  switch (kind) {
    case 'loopback':
      return 'it points at this machine (loopback), and the server is not on this machine';
    case 'private':
      return 'it points into a private network, and the server is not on one';
    case 'metadata':
      return 'it points at a cloud metadata service';
    case 'link-local':
      return 'it points at a link-local address (which includes cloud metadata services)';
    default:
      return `it points at a ${kind} address`;
  }
}

async function resolveKinds(hostname: string, lookup: HostLookup): Promise<Set<AddressKind>> {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  const addresses = isIP(bare) !== 0 ? [bare] : await lookup(bare);
  if (addresses.length === 0) throw new Error(`no address for ${bare}`);
  return new Set(addresses.map(classifyAddress));
}

/** What kind of address an IPv4 or IPv6 literal is; anything unparseable counts as reserved. */
export function classifyAddress(address: string): AddressKind {
  const version = isIP(address);
  if (version === 4) return classifyIpv4(parseIpv4(address));
  if (version === 6) return classifyIpv6(address);
  return 'reserved';
}

function parseIpv4(address: string): number[] {
  return address.split('.').map((part) => Number(part));
}

function classifyIpv4(octets: number[]): AddressKind {
  const [a = 0, b = 0, c = 0, d = 0] = octets;
  // Alibaba Cloud's metadata service sits inside the carrier-grade NAT range, so it is named before that range.
  if (a === 100 && b === 100 && c === 100 && d === 200) return 'metadata';
  if (a === 169 && b === 254 && c === 169 && d === 254) return 'metadata';
  if (a === 0) return 'unspecified';
  if (a === 127) return 'loopback';
  if (a === 10) return 'private';
  if (a === 172 && b >= 16 && b <= 31) return 'private';
  if (a === 192 && b === 168) return 'private';
  if (a === 100 && b >= 64 && b <= 127) return 'private';
  if (a === 169 && b === 254) return 'link-local';
  if (a === 192 && b === 0 && c === 0) return 'reserved';
  if (a === 198 && (b === 18 || b === 19)) return 'reserved';
  if (a >= 224 && a <= 239) return 'multicast';
  if (a >= 240) return 'reserved';
  return 'public';
}

function classifyIpv6(address: string): AddressKind {
  const groups = expandIpv6(address);
  if (groups === undefined) return 'reserved';
  const [first = 0] = groups;
  if (groups.every((group) => group === 0)) return 'unspecified';
  if (groups.slice(0, 7).every((group) => group === 0) && groups[7] === 1) return 'loopback';
  // IPv4-mapped (::ffff:a.b.c.d) and NAT64 (64:ff9b::a.b.c.d) addresses reach the IPv4 address they carry.
  const mapped = groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
  const nat64 = first === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((group) => group === 0);
  if (mapped || nat64) {
    const high = groups[6] ?? 0;
    const low = groups[7] ?? 0;
    return classifyIpv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  }
  // AWS's metadata service on IPv6: fd00:ec2::254.
  if (first === 0xfd00 && groups[1] === 0x0ec2 && groups.slice(2, 7).every((group) => group === 0)) {
    if (groups[7] === 0x254) return 'metadata';
  }
  if ((first & 0xffc0) === 0xfe80) return 'link-local';
  if ((first & 0xfe00) === 0xfc00) return 'private';
  if ((first & 0xff00) === 0xff00) return 'multicast';
  return 'public';
}

/** The eight 16-bit groups of an IPv6 literal (an embedded IPv4 tail becomes the last two groups). */
function expandIpv6(address: string): number[] | undefined {
  let text = address.toLowerCase();
  const zone = text.indexOf('%');
  if (zone !== -1) text = text.slice(0, zone);
  let tail: number[] = [];
  const lastColon = text.lastIndexOf(':');
  const last = text.slice(lastColon + 1);
  if (last.includes('.')) {
    const octets = parseIpv4(last);
    tail = [((octets[0] ?? 0) << 8) | (octets[1] ?? 0), ((octets[2] ?? 0) << 8) | (octets[3] ?? 0)];
    const prefix = text.slice(0, lastColon + 1);
    text = prefix.endsWith('::') ? prefix : prefix.slice(0, -1);
  }
  const [head = '', rest] = text.split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((group) => Number.parseInt(group, 16)));
  const headGroups = parse(head);
  const restGroups = rest === undefined ? [] : parse(rest);
  const missing = 8 - tail.length - headGroups.length - restGroups.length;
  if (missing < 0 || (rest === undefined && missing !== 0)) return undefined;
  const groups = [...headGroups, ...new Array<number>(missing).fill(0), ...restGroups, ...tail];
  return groups.some((group) => Number.isNaN(group)) ? undefined : groups;
}
