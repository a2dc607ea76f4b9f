import ipaddr from 'ipaddr.js';
import type { Context } from 'koa';

/**
 * The caller's address for per-IP limits. `ctx.ip` already honours X-Forwarded-For only when
 * the app trusts its proxy (TRUST_PROXY). The address is normalized so one client has one
 * bucket (`::ffff:10.0.0.1` is `10.0.0.1`, IPv6 in its one compact form); a forwarded value
 * that is not an IP address is ignored in favour of the socket's address.
 */
export function clientIp(ctx: Context): string {
  return normalize(ctx.ip) ?? normalize(ctx.req.socket.remoteAddress) ?? 'unknown';
}

function normalize(address: string | undefined): string | undefined {
  if (!address || !ipaddr.isValid(address)) return undefined;
  // process() turns an IPv4-mapped IPv6 address into its IPv4 address.
  return ipaddr.process(address).toString();
}
