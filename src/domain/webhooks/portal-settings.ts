/**
 * The account's settings for its tenants' portal page: the origins that may frame it (CSP `frame-ancestors`) and its
 * branding. Every value here ends up in a response header or the page, so each is held to a shape that cannot carry
 * anything else (no `;`, space or quote in an origin; a colour of six hex digits; an https logo).
 */
export interface PortalSettings {
  allowed_origins: string[];
  name: string | null;
  logo_url: string | null;
  accent_color: string | null;
}

export const DEFAULT_PORTAL_SETTINGS: PortalSettings = { allowed_origins: [], name: null, logo_url: null, accent_color: null };

export const MAX_PORTAL_ORIGINS = 10;
export const MAX_PORTAL_NAME_LENGTH = 64;
export const MAX_LOGO_URL_LENGTH = 2048;
export const ACCENT_COLOR_REGEX = /^#[0-9a-f]{6}$/;

/** Plain http is framing over a network anyone on the path can change: allowed only for a page on this machine (development). */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Letters, digits, dots and hyphens (an IDN as its xn-- form), or a bracketed IPv6 address: nothing a CSP header reads as a separator. */
const SAFE_HOST = /^(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/;

export const ORIGIN_RULE =
  'an origin, `https://host[:port]` (`http://` only for localhost, 127.0.0.1 and [::1]), with no path, query, fragment, credentials or wildcard';

/** The origin as browsers send it (lower-cased host, default port dropped), or undefined when `value` is not exactly one origin. */
export function normalizedOrigin(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname))) return undefined;
  if (url.username || url.password || url.search || url.hash || !SAFE_HOST.test(url.host)) return undefined;
  // `https://a.example/` is that origin; `https://a.example/app` is not.
  if (url.pathname !== '/' || !/^[a-z]+:\/\/[^/]+\/?$/i.test(value)) return undefined;
  return url.origin;
}

/** The list as stored: each origin as browsers send it, once; undefined when one of them is not an origin. */
export function normalizedOrigins(values: string[]): string[] | undefined {
  const origins = values.map(normalizedOrigin);
  return origins.every((origin) => origin !== undefined) ? [...new Set(origins as string[])] : undefined;
}

/** Whether `value` is an https URL (the logo's address; its origin goes in the CSP as an allowed origin does). */
export function isLogoUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && !url.username && !url.password && SAFE_HOST.test(url.host) && value.length <= MAX_LOGO_URL_LENGTH;
  } catch {
    return false;
  }
}

/** CSP `frame-ancestors`: the allowed origins only; with none, no page may frame the portal. */
export function frameAncestors(settings: Pick<PortalSettings, 'allowed_origins'>): string {
  return settings.allowed_origins.length === 0 ? "'none'" : settings.allowed_origins.join(' ');
}

/** CSP `img-src`: the page's own images and the logo's origin, nothing else. */
export function imageSources(settings: Pick<PortalSettings, 'logo_url'>): string {
  return settings.logo_url ? `'self' ${new URL(settings.logo_url).origin}` : "'self'";
}
