import { resolveAndCheck } from '../../../src/domain/webhooks/destination-resolver';
import { createDnsLookup, DEFAULT_DNS_MAX_CONCURRENT, DnsTimeoutError } from '../../../src/infra/dns-lookup';
import { startFakeDns } from '../../support/fake-dns';

const ALL = { all: true, verbatim: true } as const;

describe('createDnsLookup (c-ares, with a time-out and bounded concurrency)', () => {
  let dns: Awaited<ReturnType<typeof startFakeDns>>;
  beforeAll(async () => {
    dns = await startFakeDns();
    dns.answers.set('hooks.example.test', '93.184.216.34');
    dns.missing.add('nxdomain.example.test');
  });
  afterAll(() => dns.close());

  it('resolves through the configured name server', async () => {
    const lookup = createDnsLookup({ servers: [dns.server], timeoutMs: 2_000, maxConcurrent: DEFAULT_DNS_MAX_CONCURRENT });
    await expect(lookup('hooks.example.test', ALL)).resolves.toEqual([{ address: '93.184.216.34', family: 4 }]);
  });

  it('a name the server does not know is ENOTFOUND', async () => {
    const lookup = createDnsLookup({ servers: [dns.server], timeoutMs: 2_000, maxConcurrent: DEFAULT_DNS_MAX_CONCURRENT });
    await expect(lookup('nxdomain.example.test', ALL)).rejects.toMatchObject({ code: 'ENOTFOUND' });
  });

  it('a name server that never answers is a DnsTimeoutError after the time-out', async () => {
    const lookup = createDnsLookup({ servers: [dns.server], timeoutMs: 300, maxConcurrent: DEFAULT_DNS_MAX_CONCURRENT });
    const error = await lookup('silent.example.test', ALL).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DnsTimeoutError);
    expect(error).toMatchObject({ code: 'ETIMEOUT', message: 'DNS lookup of silent.example.test timed out after 0.3 s.' });
  });

  it('resolveAndCheck reports the time-out as dns_timeout with a clear message', async () => {
    const lookup = createDnsLookup({ servers: [dns.server], timeoutMs: 300, maxConcurrent: DEFAULT_DNS_MAX_CONCURRENT });
    await expect(resolveAndCheck('silent2.example.test', { lookup })).resolves.toEqual({
      ok: false,
      code: 'dns_timeout',
      message: 'DNS lookup of silent2.example.test timed out after 0.3 s.',
    });
  });

  it('keeps at most maxConcurrent lookups in flight; one whose time runs out while waiting is never sent', async () => {
    // Both deadlines fall at the same (fake) instant: the first frees its place as it gives up, and
    // the second, whose time has run out at that instant too, must not use it. Real immediates and
    // sockets, so the place is handed on and the name server answers as in production.
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask', 'hrtime', 'performance'] });
    try {
      const lookup = createDnsLookup({ servers: [dns.server], timeoutMs: 400, maxConcurrent: 1 });
      const results = Promise.allSettled([lookup('first.silent.test', ALL), lookup('second.silent.test', ALL)]);
      while (!dns.questions.some((q) => q.name === 'first.silent.test')) await new Promise((r) => setImmediate(r));
      jest.advanceTimersByTime(400);
      expect((await results).map((r) => r.status)).toEqual(['rejected', 'rejected']);
      // A lookup after both: had the second been sent, the server would have heard it first.
      await expect(lookup('hooks.example.test', ALL)).resolves.toEqual([{ address: '93.184.216.34', family: 4 }]);
      const asked = dns.questions.map((q) => q.name);
      expect(asked).toContain('first.silent.test');
      expect(asked).not.toContain('second.silent.test');
    } finally {
      jest.useRealTimers();
    }
  });

  it("gives a lookup's place back when its caller gives up, though c-ares would go on asking other servers", async () => {
    // Three servers that answer only answerable.test: c-ares asks each of them in turn about a
    // silent name, which without its own bound takes about three times the caller's time-out.
    const more = [await startFakeDns(), await startFakeDns()];
    try {
      for (const server of [dns, ...more]) server.answers.set('answerable.test', '93.184.216.34');
      const lookup = createDnsLookup({ servers: [dns.server, ...more.map((m) => m.server)], timeoutMs: 600, maxConcurrent: 1 });
      await expect(lookup('blackholed.test', ALL)).rejects.toBeInstanceOf(DnsTimeoutError);
      // The only place is free again at once: the next caller is answered within its own time-out.
      await expect(lookup('answerable.test', ALL)).resolves.toEqual([{ address: '93.184.216.34', family: 4 }]);
    } finally {
      await Promise.all(more.map((m) => m.close()));
    }
  });

  it('answers localhost without a name server (RFC 6761)', async () => {
    const lookup = createDnsLookup({ servers: [dns.server], timeoutMs: 300, maxConcurrent: DEFAULT_DNS_MAX_CONCURRENT });
    await expect(lookup('localhost', ALL)).resolves.toEqual([
      { address: '127.0.0.1', family: 4 },
      { address: '::1', family: 6 },
    ]);
  });

  it('resolveAndCheck refuses localhost found by the lookup (loopback), and accepts it with allowPrivate', async () => {
    const lookup = createDnsLookup({ servers: [dns.server], timeoutMs: 300, maxConcurrent: DEFAULT_DNS_MAX_CONCURRENT });
    await expect(resolveAndCheck('localhost', { lookup })).resolves.toMatchObject({ ok: false, code: 'destination_not_allowed' });
    await expect(resolveAndCheck('localhost', { lookup, allowPrivate: true })).resolves.toMatchObject({ ok: true });
  });
});
