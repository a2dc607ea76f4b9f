import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { LookupAllFunction, createGuardedLookup, resolveAndCheck } from '../../../src/domain/webhooks/destination-resolver';

type Answer = Array<{ address: string; family: number }>;

function fakeLookup(answers: Record<string, Answer | Error>): LookupAllFunction & jest.Mock {
  return jest.fn(async (hostname: string) => {
    const answer = answers[hostname];
    if (answer === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    if (answer instanceof Error) throw answer;
    return answer;
  }) as unknown as LookupAllFunction & jest.Mock;
}

const PUBLIC_V4 = { address: '93.184.216.34', family: 4 };
const PUBLIC_V6 = { address: '2606:2800:220:1:248:1893:25c8:1946', family: 6 };

describe('resolveAndCheck', () => {
  it('returns every checked address of a public host', async () => {
    const lookup = fakeLookup({ 'example.com': [PUBLIC_V6, PUBLIC_V4] });
    await expect(resolveAndCheck('example.com', { lookup })).resolves.toEqual({
      ok: true,
      addresses: [
        { address: '2606:2800:220:1:248:1893:25c8:1946', family: 6 },
        { address: '93.184.216.34', family: 4 },
      ],
    });
  });

  it('asks the lookup for all addresses, verbatim', async () => {
    const lookup = fakeLookup({ 'example.com': [PUBLIC_V4] });
    await resolveAndCheck('example.com', { lookup });
    expect(lookup).toHaveBeenCalledWith('example.com', { all: true, verbatim: true });
  });

  it('refuses a host that resolves to loopback', async () => {
    const lookup = fakeLookup({ 'evil.example': [{ address: '127.0.0.1', family: 4 }] });
    await expect(resolveAndCheck('evil.example', { lookup })).resolves.toMatchObject({
      ok: false,
      code: 'destination_not_allowed',
      message: 'evil.example resolves to a private or reserved address, which is not an allowed destination.',
    });
  });

  it('says a refused name resolves to a private or reserved address, never which one', async () => {
    const lookup = fakeLookup({ 'db.internal.example': [{ address: '10.1.2.3', family: 4 }] });
    const result = await resolveAndCheck('db.internal.example', { lookup });
    expect(result).toMatchObject({ ok: false, message: 'db.internal.example resolves to a private or reserved address, which is not an allowed destination.' });
  });

  it('refuses a host when ANY of its addresses is refused, even if the first is public', async () => {
    const lookup = fakeLookup({ 'mixed.example': [PUBLIC_V4, { address: '10.0.0.7', family: 4 }] });
    await expect(resolveAndCheck('mixed.example', { lookup })).resolves.toMatchObject({
      ok: false,
      code: 'destination_not_allowed',
    });
  });

  it('refuses a host resolving to the cloud metadata address', async () => {
    const lookup = fakeLookup({ 'meta.example': [{ address: '169.254.169.254', family: 4 }] });
    await expect(resolveAndCheck('meta.example', { lookup })).resolves.toMatchObject({ ok: false, code: 'destination_not_allowed' });
  });

  it('refuses a host resolving to an IPv4-mapped private address', async () => {
    const lookup = fakeLookup({ 'mapped.example': [{ address: '::ffff:192.168.0.10', family: 6 }] });
    await expect(resolveAndCheck('mapped.example', { lookup })).resolves.toMatchObject({
      ok: false,
      message: 'mapped.example resolves to a private or reserved address, which is not an allowed destination.',
    });
  });

  it('refuses a host resolving to IPv6 loopback', async () => {
    const lookup = fakeLookup({ 'v6.example': [PUBLIC_V6, { address: '::1', family: 6 }] });
    await expect(resolveAndCheck('v6.example', { lookup })).resolves.toMatchObject({ ok: false, code: 'destination_not_allowed' });
  });

  it('accepts private addresses when allowPrivate is set', async () => {
    const lookup = fakeLookup({ localhost: [{ address: '::1', family: 6 }, { address: '127.0.0.1', family: 4 }] });
    await expect(resolveAndCheck('localhost', { lookup, allowPrivate: true })).resolves.toEqual({
      ok: true,
      addresses: [
        { address: '::1', family: 6 },
        { address: '127.0.0.1', family: 4 },
      ],
    });
  });

  it('refuses a malformed lookup answer even when allowPrivate is set', async () => {
    const lookup = fakeLookup({ 'weird.example': [{ address: 'not-an-ip', family: 4 }] });
    await expect(resolveAndCheck('weird.example', { lookup, allowPrivate: true })).resolves.toMatchObject({
      ok: false,
      code: 'destination_not_allowed',
      message: 'weird.example resolves to an answer that is not an IP address, which is not an allowed destination.',
    });
  });

  it('returns canonical addresses without duplicates', async () => {
    const lookup = fakeLookup({ 'dup.example': [{ address: '2606:4700:4700:0:0:0:0:1111', family: 6 }, { address: '2606:4700:4700::1111', family: 6 }] });
    await expect(resolveAndCheck('dup.example', { lookup })).resolves.toEqual({
      ok: true,
      addresses: [{ address: '2606:4700:4700::1111', family: 6 }],
    });
  });

  it('reports a DNS failure as a value with the resolver error code', async () => {
    const lookup = fakeLookup({});
    await expect(resolveAndCheck('nxdomain.example', { lookup })).resolves.toEqual({
      ok: false,
      code: 'dns_lookup_failed',
      message: expect.stringContaining('ENOTFOUND'),
    });
  });

  it('reports an empty answer as a DNS failure', async () => {
    const lookup = fakeLookup({ 'empty.example': [] });
    await expect(resolveAndCheck('empty.example', { lookup })).resolves.toMatchObject({ ok: false, code: 'dns_lookup_failed' });
  });

  it('reports a lookup that throws a non-Error as a DNS failure', async () => {
    const lookup = jest.fn(async () => {
      throw 'boom';
    }) as unknown as LookupAllFunction;
    await expect(resolveAndCheck('x.example', { lookup })).resolves.toMatchObject({ ok: false, code: 'dns_lookup_failed' });
  });

  it('checks an IPv4 literal without a lookup', async () => {
    const lookup = fakeLookup({});
    await expect(resolveAndCheck('8.8.8.8', { lookup })).resolves.toEqual({ ok: true, addresses: [{ address: '8.8.8.8', family: 4 }] });
    expect(lookup).not.toHaveBeenCalled();
  });

  it('checks a bracketed IPv6 literal (URL.hostname) without a lookup', async () => {
    const lookup = fakeLookup({});
    await expect(resolveAndCheck('[::1]', { lookup })).resolves.toMatchObject({ ok: false, message: expect.stringMatching(/^::1 resolves to/) });
    expect(lookup).not.toHaveBeenCalled();
  });

  it('accepts a private literal when allowPrivate is set', async () => {
    await expect(resolveAndCheck('127.0.0.1', { allowPrivate: true, lookup: fakeLookup({}) })).resolves.toMatchObject({ ok: true });
  });
});

function callLookup(
  lookup: ReturnType<typeof createGuardedLookup>,
  hostname: string,
  options: { family?: number; all?: boolean },
): Promise<{ error: NodeJS.ErrnoException | null; address: unknown; family?: number }> {
  return new Promise((resolve) => {
    lookup(hostname, options, (error, address, family) => resolve({ error, address, family }));
  });
}

describe('createGuardedLookup', () => {
  it('hands connect the first checked address', async () => {
    const lookup = createGuardedLookup({ lookup: fakeLookup({ 'example.com': [PUBLIC_V6, PUBLIC_V4] }) });
    await expect(callLookup(lookup, 'example.com', {})).resolves.toEqual({ error: null, address: PUBLIC_V6.address, family: 6 });
  });

  it('honours a requested family', async () => {
    const lookup = createGuardedLookup({ lookup: fakeLookup({ 'example.com': [PUBLIC_V6, PUBLIC_V4] }) });
    await expect(callLookup(lookup, 'example.com', { family: 4 })).resolves.toEqual({ error: null, address: PUBLIC_V4.address, family: 4 });
  });

  it('returns all checked addresses when asked with all: true', async () => {
    const lookup = createGuardedLookup({ lookup: fakeLookup({ 'example.com': [PUBLIC_V6, PUBLIC_V4] }) });
    const result = await callLookup(lookup, 'example.com', { all: true });
    expect(result.error).toBeNull();
    expect(result.address).toEqual([
      { address: PUBLIC_V6.address, family: 6 },
      { address: PUBLIC_V4.address, family: 4 },
    ]);
  });

  it('fails with EDESTINATIONREFUSED when an address is refused', async () => {
    const lookup = createGuardedLookup({ lookup: fakeLookup({ 'rebind.example': [{ address: '127.0.0.1', family: 4 }] }) });
    const result = await callLookup(lookup, 'rebind.example', {});
    expect(result.error?.code).toBe('EDESTINATIONREFUSED');
    expect(result.error?.message).toBe('rebind.example resolves to a private or reserved address, which is not an allowed destination.');
  });

  it('fails with EDNSLOOKUPFAILED when the name does not resolve', async () => {
    const lookup = createGuardedLookup({ lookup: fakeLookup({}) });
    const result = await callLookup(lookup, 'nxdomain.example', {});
    expect(result.error?.code).toBe('EDNSLOOKUPFAILED');
  });

  it('fails with ENOTFOUND when no address has the requested family', async () => {
    const lookup = createGuardedLookup({ lookup: fakeLookup({ 'v4only.example': [PUBLIC_V4] }) });
    const result = await callLookup(lookup, 'v4only.example', { family: 6 });
    expect(result.error?.code).toBe('ENOTFOUND');
  });

  it('makes a real net.connect fail for a host resolving to a refused address', async () => {
    const server = createServer((socket) => socket.end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const lookup = createGuardedLookup({ lookup: fakeLookup({ 'rebind.example': [{ address: '127.0.0.1', family: 4 }] }) });
      const error = await new Promise<NodeJS.ErrnoException>((resolve, reject) => {
        const socket = connect({ host: 'rebind.example', port, lookup: lookup as never });
        socket.on('connect', () => {
          socket.destroy();
          reject(new Error('connected to a refused address'));
        });
        socket.on('error', resolve);
      });
      expect(error.code).toBe('EDESTINATIONREFUSED');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('lets a real net.connect reach a private address when allowPrivate is set', async () => {
    const server = createServer((socket) => socket.end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const lookup = createGuardedLookup({ allowPrivate: true, lookup: fakeLookup({ 'local.example': [{ address: '127.0.0.1', family: 4 }] }) });
      const remote = await new Promise<string | undefined>((resolve, reject) => {
        const socket = connect({ host: 'local.example', port, lookup: lookup as never });
        socket.on('connect', () => {
          resolve(socket.remoteAddress);
          socket.destroy();
        });
        socket.on('error', reject);
      });
      expect(remote).toBe('127.0.0.1');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
