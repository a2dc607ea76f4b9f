/** Checks EVERY address a destination resolves to; connect uses only those (createGuardedLookup): a second lookup could rebind. */
import { classifyAddress, parseIpLiteral } from './destination-address';

/** Looks up every address of a name (src/infra/dns-lookup.ts in the platform); rejects with `code` 'ETIMEOUT' when out of time. */
export type LookupAllFunction = (
  hostname: string,
  options: { all: true; verbatim: true },
) => Promise<ReadonlyArray<{ address: string; family: number }>>;

export interface CheckedAddress {
  /** Canonical text form, safe to pass to connect(). */
  address: string;
  family: 4 | 6;
}

export interface ResolveOptions {
  /** DELIVERY_ALLOW_PRIVATE_NETWORKS=true: every parseable address is accepted. */
  allowPrivate?: boolean;
  lookup: LookupAllFunction;
}

export type ResolveAndCheckResult =
  | { ok: true; addresses: CheckedAddress[] }
  | { ok: false; code: 'dns_lookup_failed' | 'dns_timeout' | 'destination_not_allowed'; message: string };

/** Outcomes are values, not exceptions, so an attempt records them; IP literals are checked without lookup. */
export async function resolveAndCheck(hostname: string, options: ResolveOptions): Promise<ResolveAndCheckResult> {
  const literal = parseIpLiteral(hostname);
  const name = literal ? hostname.replace(/^\[(.*)\]$/, '$1') : hostname;

  let found: ReadonlyArray<{ address: string; family: number }>;
  if (literal) {
    found = [{ address: name, family: literal.family }];
  } else {
    try {
      found = await options.lookup(name, { all: true, verbatim: true });
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      if (code === 'ETIMEOUT') return { ok: false, code: 'dns_timeout', message: (error as Error).message };
      return { ok: false, code: 'dns_lookup_failed', message: `DNS lookup of ${name} failed${typeof code === 'string' ? ` (${code})` : ''}.` };
    }
    if (!Array.isArray(found) || found.length === 0) {
      return { ok: false, code: 'dns_lookup_failed', message: `DNS lookup of ${name} returned no address.` };
    }
  }

  // Canonical address → family: one found twice keeps its first place.
  const addresses = new Map<string, 4 | 6>();
  for (const entry of found) {
    const verdict = classifyAddress(entry?.address);
    // allowPrivate lifts the range rules, never the requirement of a well-formed address.
    const acceptable = verdict.allowed || (options.allowPrivate === true && verdict.address !== undefined);
    if (!acceptable) {
      return {
        ok: false,
        code: 'destination_not_allowed',
        // Address and range stay out of the message, shown to the caller (a 422, an attempt's error): they would map internal names.
        message:
          verdict.address === undefined
            ? `${name} resolves to an answer that is not an IP address, which is not an allowed destination.`
            : `${name} resolves to a private or reserved address, which is not an allowed destination.`,
      };
    }
    addresses.set(verdict.address as string, verdict.family as 4 | 6);
  }
  return { ok: true, addresses: [...addresses].map(([address, family]) => ({ address, family })) };
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | Array<{ address: string; family: number }>,
  family?: number,
) => void;

/** A net.connect `lookup` yielding only checked addresses (of `family`, unless 0). Connect skips it for IP literals: check those first. */
export function createGuardedLookup(options: ResolveOptions) {
  return function guardedLookup(hostname: string, opts: { family?: number; all?: boolean }, callback: LookupCallback): void {
    const fail = (error: NodeJS.ErrnoException) => callback(error, opts.all ? [] : '', undefined);
    resolveAndCheck(hostname, options).then(
      (result) => {
        if (!result.ok) {
          // The code tells the sender (activities/http-sender.ts) a refusal from a failed connection.
          const code = result.code === 'destination_not_allowed' ? 'EDESTINATIONREFUSED' : 'EDNSLOOKUPFAILED';
          return fail(Object.assign(new Error(result.message), { code }));
        }
        const usable = opts.family ? result.addresses.filter((a) => a.family === opts.family) : result.addresses;
        if (usable.length === 0) return fail(Object.assign(new Error(`${hostname} has no IPv${opts.family} address.`), { code: 'ENOTFOUND' }));
        if (opts.all) callback(null, usable.map((a) => ({ address: a.address, family: a.family })));
        else callback(null, (usable[0] as CheckedAddress).address, (usable[0] as CheckedAddress).family);
      },
      (error: unknown) => fail(error as NodeJS.ErrnoException),
    );
  };
}
