/**
 * SSRF rules (the addresses a delivery may connect to) and CONTRACT §3's URL rules; DNS is in destination-resolver.ts.
 * IPv6 embedding an IPv4 address is judged by it; outside 2000::/3 it is refused, so a range reserved later cannot slip in.
 */
import ipaddr from 'ipaddr.js';

export type AddressClassification =
  /** `address` is the canonical text form: connect to exactly this string. */
  | { allowed: true; address: string; family: 4 | 6 }
  /** `address`/`family` are present when the input was a parseable IP address. */
  | { allowed: false; reason: string; address?: string; family?: 4 | 6 };

/** Refused IPv4 ranges, first match wins (so 255.255.255.255 reports "broadcast", not 240/4). */
export const REFUSED_IPV4_RANGES: ReadonlyArray<readonly [cidr: string, reason: string]> = Object.freeze([
  ['0.0.0.0/8', 'unspecified ("this network")'],
  ['10.0.0.0/8', 'private network'],
  ['100.64.0.0/10', 'carrier-grade NAT (shared address space)'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'link-local (includes cloud metadata 169.254.169.254)'],
  ['172.16.0.0/12', 'private network'],
  ['192.0.0.0/24', 'reserved (IETF protocol assignments)'],
  ['192.0.2.0/24', 'documentation (TEST-NET-1)'],
  ['192.88.99.0/24', 'reserved (deprecated 6to4 relay anycast)'],
  ['192.168.0.0/16', 'private network'],
  ['198.18.0.0/15', 'benchmarking'],
  ['198.51.100.0/24', 'documentation (TEST-NET-2)'],
  ['203.0.113.0/24', 'documentation (TEST-NET-3)'],
  ['224.0.0.0/4', 'multicast'],
  ['255.255.255.255/32', 'broadcast'],
  ['240.0.0.0/4', 'reserved'],
] as const);

/** First match wins. IPv4-mapped, NAT64 and 6to4 are not listed: they are judged by their embedded IPv4. */
export const REFUSED_IPV6_RANGES: ReadonlyArray<readonly [cidr: string, reason: string]> = Object.freeze([
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
  ['::/96', 'IPv4-compatible (deprecated)'],
  ['::ffff:0:0:0/96', 'IPv4-translated (SIIT)'],
  ['64:ff9b:1::/48', 'NAT64 local-use prefix'],
  ['100::/64', 'discard-only'],
  ['2001::/32', 'Teredo tunnelling'],
  ['2001:2::/48', 'benchmarking'],
  ['2001::/23', 'reserved (IETF protocol assignments)'],
  ['2001:db8::/32', 'documentation'],
  ['3fff::/20', 'documentation'],
  ['5f00::/16', 'segment routing (SRv6 SIDs)'],
  ['fc00::/7', 'unique local (private network)'],
  ['fe80::/10', 'link-local'],
  ['fec0::/10', 'site-local (deprecated)'],
  ['ff00::/8', 'multicast'],
] as const);

const IPV4_RULES = REFUSED_IPV4_RANGES.map(([cidr, reason]) => ({ cidr, reason, range: ipaddr.IPv4.parseCIDR(cidr) }));
const IPV6_RULES = REFUSED_IPV6_RANGES.map(([cidr, reason]) => ({ cidr, reason, range: ipaddr.IPv6.parseCIDR(cidr) }));
const IPV6_GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR('2000::/3');
const IPV4_MAPPED = ipaddr.IPv6.parseCIDR('::ffff:0:0/96');
const NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR('64:ff9b::/96');
const SIX_TO_FOUR = ipaddr.IPv6.parseCIDR('2002::/16');

const IPV6_CHARS = /^[0-9A-Fa-f:.]+$/;

/** Dotted-quad IPv4, or IPv6 optionally bracketed (URL.hostname); null otherwise, zone-qualified IPv6 too. */
export function parseIpLiteral(input: string): { family: 4; ip: ipaddr.IPv4 } | { family: 6; ip: ipaddr.IPv6 } | null {
  if (typeof input !== 'string') return null;
  // Strict dotted-quad: no octal, hex, short or leading-zero forms, which resolvers read differently.
  if (ipaddr.IPv4.isValidFourPartDecimal(input)) return { family: 4, ip: ipaddr.IPv4.parse(input) };
  const text = input.startsWith('[') && input.endsWith(']') ? input.slice(1, -1) : input;
  if (!text.includes(':') || !IPV6_CHARS.test(text)) return null;
  // ipaddr.js reads the deprecated "::a.b.c.d" as IPv4-mapped, unlike the RFC: canonicalize through URL first.
  let canonical: string;
  try {
    const host = new URL(`http://[${text}]/`).hostname;
    if (!host.startsWith('[') || !host.endsWith(']')) return null;
    canonical = host.slice(1, -1);
  } catch {
    return null;
  }
  if (!ipaddr.IPv6.isValid(canonical)) return null;
  return { family: 6, ip: ipaddr.IPv6.parse(canonical) };
}

/** Whether a delivery may connect to `ip` (a literal address, IPv6 optionally bracketed). */
export function classifyAddress(ip: string): AddressClassification {
  const parsed = parseIpLiteral(ip);
  if (parsed === null) {
    const scoped = typeof ip === 'string' && ip.includes('%');
    return { allowed: false, reason: scoped ? 'zone-qualified (scoped) IPv6 address' : 'not an IP address' };
  }
  return parsed.family === 4 ? classifyIPv4(parsed.ip) : classifyIPv6(parsed.ip);
}

function classifyIPv4(ip: ipaddr.IPv4): AddressClassification {
  const address = ip.toString();
  for (const rule of IPV4_RULES) {
    if (ip.match(rule.range)) return { allowed: false, reason: `${rule.reason} (${rule.cidr})`, address, family: 4 };
  }
  return { allowed: true, address, family: 4 };
}

function classifyIPv6(ip: ipaddr.IPv6): AddressClassification {
  const address = ip.toRFC5952String();
  const embedded = embeddedIPv4(ip);
  if (embedded !== null) {
    const inner = classifyIPv4(embedded.ip);
    return inner.allowed
      ? { allowed: true, address, family: 6 }
      : { allowed: false, reason: `${embedded.form} of ${inner.address}: ${inner.reason}`, address, family: 6 };
  }
  for (const rule of IPV6_RULES) {
    if (ip.match(rule.range)) return { allowed: false, reason: `${rule.reason} (${rule.cidr})`, address, family: 6 };
  }
  if (!ip.match(IPV6_GLOBAL_UNICAST)) {
    return { allowed: false, reason: 'not global unicast (outside 2000::/3)', address, family: 6 };
  }
  return { allowed: true, address, family: 6 };
}

/** The IPv4 address an IPv6 address is routed to, for the forms that embed one. */
function embeddedIPv4(ip: ipaddr.IPv6): { form: string; ip: ipaddr.IPv4 } | null {
  const p = ip.parts;
  const v4 = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  if (ip.match(IPV4_MAPPED)) return { form: 'IPv4-mapped address', ip: v4(p[6] as number, p[7] as number) };
  if (ip.match(NAT64_WELL_KNOWN)) return { form: 'NAT64 address', ip: v4(p[6] as number, p[7] as number) };
  if (ip.match(SIX_TO_FOUR)) return { form: '6to4 address', ip: v4(p[1] as number, p[2] as number) };
  return null;
}

export const MAX_DESTINATION_URL_LENGTH = 2048;

export type DestinationUrlValidation =
  | { ok: true; url: URL }
  /** `invalid_url`: not a well-formed URL; the other codes: well-formed but refused. */
  | { ok: false; code: 'invalid_url' | UrlRefusal; message: string };

type UrlRefusal = 'unsupported_url_scheme' | 'url_credentials_not_allowed' | 'destination_not_allowed';

/** CONTRACT §3 URL rules, in order; `allowPrivate`: DELIVERY_ALLOW_PRIVATE_NETWORKS. Host names: destination-resolver.ts. */
export function validateDestinationUrl(raw: unknown, options: { allowPrivate?: boolean } = {}): DestinationUrlValidation {
  if (typeof raw !== 'string') return invalid('url must be a string.');
  // Checked before parsing so an oversized value costs nothing.
  if (raw.length > MAX_DESTINATION_URL_LENGTH) return invalid(`url must be at most ${MAX_DESTINATION_URL_LENGTH} characters.`);
  // The URL parser strips outer whitespace and inner tabs/newlines: refused, so the stored URL is as sent.
  if (/[\u0000-\u0020\u007f]/.test(raw)) return invalid('url must not contain whitespace or control characters.');
  if (!URL.canParse(raw)) return invalid(portOutOfRange(raw) ? PORT_RULE : 'url must be an absolute URL.');
  const url = new URL(raw);
  if (url.protocol !== 'https:') {
    return refused('unsupported_url_scheme', `url must use the https scheme, not "${url.protocol.slice(0, -1).slice(0, 32)}".`);
  }
  // The parser finds a host in `https:example.com` and `https:///example.com` too: the URL stored would not show where deliveries go.
  if (!/^https:\/\/[^/\\?#]/i.test(raw)) return invalid('url must be an absolute URL: https:// and then the host.');
  const badHost = hostNameFault(url.hostname);
  if (badHost) return invalid(`url host ${url.hostname.slice(0, 100)} is not a valid host name: ${badHost}.`);
  if (url.username !== '' || url.password !== '') {
    return refused('url_credentials_not_allowed', 'url must not contain a user name or password.');
  }
  // The parser takes port 0, which no request can reach: every attempt would fail.
  if (url.port === '0') return invalid(PORT_RULE);
  if (!options.allowPrivate && parseIpLiteral(url.hostname)) {
    const verdict = classifyAddress(url.hostname);
    if (!verdict.allowed) {
      return refused('destination_not_allowed', `url host ${url.hostname} is not an allowed destination: ${verdict.reason}.`);
    }
  }
  return { ok: true, url };
}

const PORT_RULE = 'url port must be 1 to 65535.';

/** Whether an unparsable URL names a port past 65535 (said as that, not as "not a URL"). */
const portOutOfRange = (raw: string): boolean => Number(/^[a-z][a-z\d+.-]*:\/\/[^/?#]*:(\d+)(?:[/?#]|$)/i.exec(raw)?.[1] ?? 0) > 65535;

/**
 * What makes a host name one DNS cannot look up (RFC 1123 §2.1: labels of 1 to 63 letters, digits and hyphens, not
 * starting or ending with a hyphen; 253 characters), or null. Underscores are let through, as resolvers take them;
 * IP literals are the address rules' to judge. The parser has already lower-cased the name and turned Unicode into `xn--`.
 */
export function hostNameFault(hostname: string): string | null {
  if (hostname.startsWith('[') || parseIpLiteral(hostname)) return null;
  const name = hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
  if (name.length === 0 || name.length > 253) return 'it must have 1 to 253 characters';
  for (const label of name.split('.')) {
    if (label.length === 0) return 'it has an empty label (two dots in a row)';
    if (label.length > 63) return 'a label is longer than 63 characters';
    if (!/^[a-z\d_]([a-z\d_-]*[a-z\d_])?$/.test(label)) return 'a label may hold only letters, digits, hyphens and underscores, and may not start or end with a hyphen';
  }
  return null;
}

function refused(code: 'invalid_url' | UrlRefusal, message: string): DestinationUrlValidation {
  return { ok: false, code, message };
}

const invalid = (message: string) => refused('invalid_url', message);
