// c-ares (dns.Resolver), not getaddrinfo: a silent name server would take libuv's 4 threads from argon2 and file I/O.
import { promises as dnsPromises } from 'node:dns';
import type { LookupAllFunction } from '../domain/webhooks/destination-resolver';

export const DEFAULT_DNS_TIMEOUT_MS = 5_000;
export const DEFAULT_DNS_MAX_CONCURRENT = 64;

/** Thrown when a lookup does not finish in time; `code` is c-ares's own code for it. */
export class DnsTimeoutError extends Error {
  readonly code = 'ETIMEOUT';
  constructor(readonly hostname: string, readonly timeoutMs: number) {
    super(`DNS lookup of ${hostname} timed out after ${timeoutMs / 1000} s.`);
    this.name = 'DnsTimeoutError';
  }
}

/** RFC 6761: `localhost` and `*.localhost` are loopback, answered here (c-ares does not read /etc/hosts). */
const LOOPBACK = [
  { address: '127.0.0.1', family: 4 },
  { address: '::1', family: 6 },
];

/** `servers`: name servers (`ip` or `ip:port`); default: the system's (resolv.conf). */
export function createDnsLookup(options: { servers?: string[]; timeoutMs: number; maxConcurrent: number }): LookupAllFunction {
  const { servers, timeoutMs } = options;
  const gate = new Gate(options.maxConcurrent);
  // Two tries (a lost datagram is retried); c-ares asks each server in turn and doubles the wait on the
  // second round: n servers take about 3·n·timeout, sized to end by timeoutMs (the deadline is the bound).
  const serverCount = servers && servers.length > 0 ? servers.length : Math.max(1, dnsPromises.getServers().length);
  const resolver = new dnsPromises.Resolver({ timeout: Math.max(50, Math.floor(timeoutMs / (3 * serverCount))), tries: 2 });
  if (servers && servers.length > 0) resolver.setServers(servers);

  return async (hostname) => {
    const name = hostname.toLowerCase().replace(/\.$/, '');
    if (name === 'localhost' || name.endsWith('.localhost')) return LOOPBACK;
    let timer: NodeJS.Timeout | undefined;
    let timedOut = false;
    let leave: (() => void) | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        timedOut = true;
        leave?.(); // the caller gives up now: so does its place
        reject(new DnsTimeoutError(hostname, timeoutMs));
      }, timeoutMs);
    });
    const query = (async () => {
      try {
        leave = await gate.enter();
        // A lookup whose time ran out while it waited for a place is not sent at all.
        if (timedOut) throw new DnsTimeoutError(hostname, timeoutMs);
        return await Promise.allSettled([resolver.resolve4(hostname), resolver.resolve6(hostname)]);
      } finally {
        leave?.();
      }
    })();
    query.catch(() => undefined); // settled after the deadline: nobody waits for it any more
    try {
      const [v4, v6] = await Promise.race([query, deadline]);
      const found = [
        ...(v4.status === 'fulfilled' ? v4.value.map((address) => ({ address, family: 4 })) : []),
        ...(v6.status === 'fulfilled' ? v6.value.map((address) => ({ address, family: 6 })) : []),
      ];
      if (found.length > 0) return found;
      const errors = [v4, v6].map((r) => (r.status === 'rejected' ? (r.reason as NodeJS.ErrnoException) : undefined));
      if (errors.some((e) => e?.code === 'ETIMEOUT')) throw new DnsTimeoutError(hostname, timeoutMs);
      // NXDOMAIN is ENOTFOUND on both; a name with no address of either family is ENODATA.
      throw errors.find((e) => e && e.code !== 'ENODATA') ?? errors[0] ?? new Error(`DNS lookup of ${hostname} returned no address.`);
    } finally {
      clearTimeout(timer);
    }
  };
}

/** At most `limit` holders at once; the others wait in order. */
class Gate {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limit: number) {}

  /** Resolves once a place is held; the function it gives back frees it (once, however often called). */
  async enter(): Promise<() => void> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active++;
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const next = this.waiting.shift();
      // After the timers due now have fired, so a waiter whose time ran out this instant is not sent.
      if (next) setImmediate(next);
      else this.active--;
    };
  }
}
