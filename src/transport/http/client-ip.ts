import ipaddr from 'ipaddr.js';
import type { Context } from 'koa';

/** One limit bucket per client (`::ffff:10.0.0.1` is `10.0.0.1`); a forwarded non-IP yields the socket's. */
export function clientIp(ctx: Context): string {
  return normalize(ctx.ip) ?? normalize(ctx.req.socket.remoteAddress) ?? 'unknown';
}

function normalize(address: string | undefined): string | undefined {
  if (!address || !ipaddr.isValid(address)) return undefined;
  return ipaddr.process(address).toString();
}
