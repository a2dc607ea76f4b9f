import ipaddr from 'ipaddr.js';
import type { Context } from 'koa';

/**
 * The caller's address for per-IP limits, normalized so one client has one bucket (`::ffff:10.0.0.1`
 * is `10.0.0.1`); a forwarded value that is not an IP address gives way to the socket's address.
 */
export function clientIp(ctx: Context): string {
  return normalize(ctx.ip) ?? normalize(ctx.req.socket.remoteAddress) ?? 'unknown';
}

function normalize(address: string | undefined): string | undefined {
  if (!address || !ipaddr.isValid(address)) return undefined;
  // process() turns an IPv4-mapped IPv6 address into its IPv4 address.
  return ipaddr.process(address).toString();
}
