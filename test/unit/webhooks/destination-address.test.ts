import ipaddr from 'ipaddr.js';
import {
  MAX_DESTINATION_URL_LENGTH,
  REFUSED_IPV4_RANGES,
  REFUSED_IPV6_RANGES,
  classifyAddress,
  parseIpLiteral,
  validateDestinationUrl,
} from '../../../src/domain/webhooks/destination-address';

function expectRefused(ip: string, reason: RegExp): void {
  const verdict = classifyAddress(ip);
  expect({ ip, allowed: verdict.allowed }).toEqual({ ip, allowed: false });
  if (!verdict.allowed) expect(verdict.reason).toMatch(reason);
}

function expectAllowed(ip: string): void {
  const verdict = classifyAddress(ip);
  expect({ ip, verdict }).toEqual({ ip, verdict: expect.objectContaining({ allowed: true }) });
}

describe('classifyAddress: IPv4', () => {
  it.each(['8.8.8.8', '1.1.1.1', '93.184.216.34', '151.101.1.69', '11.0.0.1', '100.63.255.255', '100.128.0.0', '172.15.255.255', '172.32.0.0', '192.167.255.255', '192.169.0.0', '169.253.255.255', '169.255.0.1', '198.17.255.255', '198.20.0.0', '223.255.255.255', '1.0.0.0'])(
    'allows the public address %s',
    (ip) => expectAllowed(ip),
  );

  it('returns the canonical address and family 4 for an allowed address', () => {
    expect(classifyAddress('8.8.4.4')).toEqual({ allowed: true, address: '8.8.4.4', family: 4 });
  });

  it.each(['127.0.0.1', '127.0.0.0', '127.255.255.255', '127.1.2.3'])('refuses loopback %s (127/8)', (ip) => expectRefused(ip, /loopback/));

  it.each(['0.0.0.0', '0.1.2.3', '0.255.255.255'])('refuses unspecified %s (0/8)', (ip) => expectRefused(ip, /unspecified/));

  it.each(['10.0.0.0', '10.0.0.1', '10.255.255.255'])('refuses private %s (10/8)', (ip) => expectRefused(ip, /private/));

  it.each(['172.16.0.0', '172.16.0.1', '172.20.10.5', '172.31.255.255'])('refuses private %s (172.16/12)', (ip) => expectRefused(ip, /private/));

  it.each(['192.168.0.0', '192.168.1.1', '192.168.255.255'])('refuses private %s (192.168/16)', (ip) => expectRefused(ip, /private/));

  it.each(['169.254.0.0', '169.254.169.254', '169.254.170.2', '169.254.255.255'])('refuses link-local %s (169.254/16)', (ip) =>
    expectRefused(ip, /link-local/),
  );

  it('names the cloud metadata address in the link-local reason', () => {
    expectRefused('169.254.169.254', /metadata/);
  });

  it.each(['100.64.0.0', '100.64.0.1', '100.100.100.200', '100.127.255.255'])('refuses CGNAT %s (100.64/10)', (ip) =>
    expectRefused(ip, /carrier-grade NAT/),
  );

  it.each(['224.0.0.0', '224.0.0.251', '239.255.255.250', '239.255.255.255'])('refuses multicast %s (224/4)', (ip) => expectRefused(ip, /multicast/));

  it.each(['240.0.0.0', '250.1.2.3', '255.255.255.254'])('refuses reserved %s (240/4)', (ip) => expectRefused(ip, /reserved/));

  it('refuses the broadcast address 255.255.255.255', () => expectRefused('255.255.255.255', /broadcast/));

  it.each(['192.0.0.0', '192.0.0.8', '192.0.0.170', '192.0.0.255'])('refuses IETF protocol assignments %s (192.0.0/24)', (ip) =>
    expectRefused(ip, /reserved/),
  );

  it.each(['192.0.2.0', '192.0.2.1', '192.0.2.255'])('refuses documentation %s (192.0.2/24)', (ip) => expectRefused(ip, /documentation/));

  it.each(['198.51.100.0', '198.51.100.7', '198.51.100.255'])('refuses documentation %s (198.51.100/24)', (ip) => expectRefused(ip, /documentation/));

  it.each(['203.0.113.0', '203.0.113.9', '203.0.113.255'])('refuses documentation %s (203.0.113/24)', (ip) => expectRefused(ip, /documentation/));

  it.each(['198.18.0.0', '198.18.0.1', '198.19.255.255'])('refuses benchmarking %s (198.18/15)', (ip) => expectRefused(ip, /benchmarking/));

  it('refuses the deprecated 6to4 relay anycast 192.88.99.1', () => expectRefused('192.88.99.1', /6to4 relay/));

  it('puts the matched CIDR in the reason', () => {
    expectRefused('10.1.2.3', /10\.0\.0\.0\/8/);
  });

  it('covers every ipaddr.js IPv4 special range except globally reachable AS112 and AMT', () => {
    const special = (ipaddr.IPv4.prototype as unknown as { SpecialRanges: Record<string, [ipaddr.IPv4, number] | [ipaddr.IPv4, number][]> }).SpecialRanges;
    for (const [name, value] of Object.entries(special)) {
      if (name === 'as112' || name === 'amt') continue;
      const ranges = (Array.isArray(value[0]) ? value : [value]) as [ipaddr.IPv4, number][];
      for (const [base, bits] of ranges) {
        const first = base.toString();
        const last = ipaddr.IPv4.broadcastAddressFromCIDR(`${first}/${bits}`).toString();
        expect({ name, first, allowed: classifyAddress(first).allowed }).toEqual({ name, first, allowed: false });
        expect({ name, last, allowed: classifyAddress(last).allowed }).toEqual({ name, last, allowed: false });
      }
    }
  });

  it('lists every refused IPv4 range with a reason', () => {
    for (const [cidr, reason] of REFUSED_IPV4_RANGES) {
      expect(ipaddr.IPv4.isValidCIDR(cidr)).toBe(true);
      expect(reason.length).toBeGreaterThan(0);
    }
  });
});

describe('classifyAddress: IPv6', () => {
  it.each(['2606:4700:4700::1111', '2001:4860:4860::8888', '2a00:1450:4001:80b::200e', '2001:200::1', '2c0f:fb50::1', '3ffe::1'])(
    'allows the global unicast address %s',
    (ip) => expectAllowed(ip),
  );

  it('returns the RFC 5952 form and family 6 for an allowed address', () => {
    expect(classifyAddress('2606:4700:4700:0000:0000:0000:0000:1111')).toEqual({ allowed: true, address: '2606:4700:4700::1111', family: 6 });
  });

  it('accepts a bracketed IPv6 literal as in URL.hostname', () => {
    expectRefused('[::1]', /loopback/);
    expectAllowed('[2606:4700:4700::1111]');
  });

  it('refuses loopback ::1', () => expectRefused('::1', /loopback/));

  it('refuses loopback ::1 in full form', () => expectRefused('0:0:0:0:0:0:0:1', /loopback/));

  it('refuses unspecified ::', () => expectRefused('::', /unspecified/));

  it.each(['fc00::1', 'fd00::1', 'fd12:3456:789a:1::1', 'fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'])('refuses unique local %s (fc00::/7)', (ip) =>
    expectRefused(ip, /unique local/),
  );

  it.each(['fe80::1', 'fe80::1ff:fe23:4567:890a', 'febf:ffff::1'])('refuses link-local %s (fe80::/10)', (ip) => expectRefused(ip, /link-local/));

  it.each(['fec0::1', 'feff::1'])('refuses deprecated site-local %s (fec0::/10)', (ip) => expectRefused(ip, /site-local/));

  it.each(['ff02::1', 'ff05::2', 'ff0e::1', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'])('refuses multicast %s (ff00::/8)', (ip) =>
    expectRefused(ip, /multicast/),
  );

  it.each(['100::', '100::1', '100::ffff:ffff:ffff:ffff'])('refuses discard-only %s (100::/64)', (ip) => expectRefused(ip, /discard/));

  it.each(['2001:db8::', '2001:db8::1', '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff'])('refuses documentation %s (2001:db8::/32)', (ip) =>
    expectRefused(ip, /documentation/),
  );

  it('refuses documentation 3fff::1 (3fff::/20)', () => expectRefused('3fff::1', /documentation/));

  it.each(['2001::1', '2001:0:4136:e378:8000:63bf:3fff:fdd2', '2001:0:ffff:ffff:ffff:ffff:ffff:ffff'])('refuses Teredo %s (2001::/32)', (ip) =>
    expectRefused(ip, /Teredo/),
  );

  it('refuses benchmarking 2001:2::1 (2001:2::/48)', () => expectRefused('2001:2::1', /benchmarking/));

  it.each(['2001:10::1', '2001:20::1', '2001:1ff::1'])('refuses IETF protocol assignments %s (2001::/23)', (ip) => expectRefused(ip, /reserved/));

  it('refuses segment routing 5f00::1 (5f00::/16)', () => expectRefused('5f00::1', /segment routing/));

  it.each(['::2', '::ff', '::1:2'])('refuses IPv4-compatible %s (::/96)', (ip) => expectRefused(ip, /IPv4-compatible/));

  it('refuses the deprecated ::a.b.c.d form as IPv4-compatible, not as IPv4-mapped', () => {
    expectRefused('::8.8.8.8', /IPv4-compatible/);
  });

  it.each(['1::1', '400::1', '1000::1', '4000::1', 'e000::1', 'fb00::1'])('refuses %s outside global unicast 2000::/3', (ip) =>
    expectRefused(ip, /global unicast/),
  );

  it('refuses IPv4-translated ::ffff:0:a.b.c.d', () => expectRefused('::ffff:0:8.8.8.8', /IPv4-translated/));

  it('refuses NAT64 local-use 64:ff9b:1::/48', () => expectRefused('64:ff9b:1::808:808', /NAT64 local-use/));

  it('lists every refused IPv6 range with a reason', () => {
    for (const [cidr, reason] of REFUSED_IPV6_RANGES) {
      expect(ipaddr.IPv6.isValidCIDR(cidr)).toBe(true);
      expect(reason.length).toBeGreaterThan(0);
    }
  });
});

describe('classifyAddress: IPv6 forms embedding IPv4', () => {
  it.each(['::ffff:127.0.0.1', '::ffff:7f00:1', '0:0:0:0:0:ffff:127.0.0.1', '::FFFF:127.0.0.1', '[::ffff:127.0.0.1]'])(
    'refuses the IPv4-mapped loopback %s',
    (ip) => expectRefused(ip, /IPv4-mapped address of 127\.0\.0\.1: loopback/),
  );

  it.each([
    ['::ffff:10.0.0.1', /private/],
    ['::ffff:169.254.169.254', /link-local/],
    ['::ffff:192.168.0.1', /private/],
    ['::ffff:100.64.0.1', /carrier-grade NAT/],
    ['::ffff:0.0.0.0', /unspecified/],
    ['::ffff:224.0.0.1', /multicast/],
    ['::ffff:a9fe:a9fe', /link-local/],
  ])('refuses the IPv4-mapped %s by its IPv4 address', (ip, reason) => expectRefused(ip, reason));

  it('allows the IPv4-mapped public address ::ffff:8.8.8.8', () => {
    expect(classifyAddress('::ffff:8.8.8.8')).toEqual({ allowed: true, address: '::ffff:808:808', family: 6 });
  });

  it.each([
    ['64:ff9b::127.0.0.1', /NAT64 address of 127\.0\.0\.1: loopback/],
    ['64:ff9b::a00:1', /NAT64 address of 10\.0\.0\.1: private/],
    ['64:ff9b::169.254.169.254', /link-local/],
    ['64:ff9b::192.168.1.1', /private/],
  ])('refuses the NAT64 %s by its embedded IPv4 address', (ip, reason) => expectRefused(ip, reason));

  it('allows the NAT64 address of a public IPv4 64:ff9b::8.8.8.8', () => expectAllowed('64:ff9b::8.8.8.8'));

  it.each([
    ['2002:7f00:1::', /6to4 address of 127\.0\.0\.1: loopback/],
    ['2002:a00:1::1', /6to4 address of 10\.0\.0\.1: private/],
    ['2002:a9fe:a9fe::1', /6to4 address of 169\.254\.169\.254/],
    ['2002:c0a8:101::1', /192\.168\.1\.1: private/],
    ['2002:0:0::1', /0\.0\.0\.0: unspecified/],
  ])('refuses the 6to4 %s by its embedded IPv4 address', (ip, reason) => expectRefused(ip, reason));

  it('allows the 6to4 address of a public IPv4 2002:808:808::1', () => expectAllowed('2002:808:808::1'));
});

describe('classifyAddress: input that is not a plain IP address', () => {
  it.each(['', 'localhost', 'example.com', '1.2.3', '1.2.3.4.5', '256.1.1.1', ' 8.8.8.8', '8.8.8.8 ', '::1::', ':::', 'gggg::1', '[8.8.8.8]', '[::1', '2001:db8::/32'])(
    'refuses %j as not an IP address',
    (ip) => expectRefused(ip, /not an IP address/),
  );

  it.each(['0x7f.0.0.1', '0177.0.0.1', '127.1', '2130706433', '010.0.0.1', '08.8.8.8'])(
    'refuses the non-canonical IPv4 form %s instead of guessing how a resolver reads it',
    (ip) => expectRefused(ip, /not an IP address/),
  );

  it.each(['fe80::1%eth0', '2606:4700::1%1', '::1%lo'])('refuses the zone-qualified address %s', (ip) => expectRefused(ip, /zone-qualified/));

  it('refuses URL-like input that would smuggle another host', () => {
    expectRefused('::1]@evil.example', /not an IP address/);
  });

  it.each([null, undefined, 42, {}])('never throws on %p', (value) => {
    expect(classifyAddress(value as unknown as string).allowed).toBe(false);
  });
});

describe('parseIpLiteral', () => {
  it('parses IPv4 as family 4', () => {
    expect(parseIpLiteral('8.8.8.8')?.family).toBe(4);
  });

  it('parses bracketed and bare IPv6 as family 6', () => {
    expect(parseIpLiteral('[::1]')?.family).toBe(6);
    expect(parseIpLiteral('::1')?.family).toBe(6);
  });

  it('does not treat host names as literals', () => {
    expect(parseIpLiteral('example.com')).toBeNull();
    expect(parseIpLiteral('1.2.3.4.nip.io')).toBeNull();
  });
});

describe('validateDestinationUrl: 400 for malformed input', () => {
  it.each([undefined, null, 42, {}, ['https://example.com']])('refuses the non-string %p with 400', (raw) => {
    expect(validateDestinationUrl(raw)).toEqual({ ok: false, code: 'invalid_url', message: expect.any(String) });
  });

  it.each(['', 'example.com/hook', '/hook', '//example.com/hook', 'not a url', 'https//example.com'])('refuses the non-absolute %j with 400', (raw) => {
    expect(validateDestinationUrl(raw)).toMatchObject({ ok: false, code: 'invalid_url' });
  });

  it('refuses a URL that cannot be parsed with 400', () => {
    expect(validateDestinationUrl('https://exa mple.com/')).toMatchObject({ ok: false, code: 'invalid_url' });
    expect(validateDestinationUrl('https://[::1/')).toMatchObject({ ok: false, code: 'invalid_url' });
  });

  it('refuses port 0, which no request can reach, with 400', () => {
    expect(validateDestinationUrl('https://example.com:0/hook')).toMatchObject({ ok: false, code: 'invalid_url', message: 'url port must be 1 to 65535.' });
    expect(validateDestinationUrl('https://example.com:65535/hook').ok).toBe(true);
  });

  it('refuses a port past 65535 saying so, not as a URL that cannot be parsed', () => {
    expect(validateDestinationUrl('https://example.com:65536/hook')).toEqual({ ok: false, code: 'invalid_url', message: 'url port must be 1 to 65535.' });
    expect(validateDestinationUrl('https://example.com:99999')).toEqual({ ok: false, code: 'invalid_url', message: 'url port must be 1 to 65535.' });
  });

  it.each(['https:example.com/hook', 'https:///example.com/hook', 'https:\\\\example.com/hook', 'HTTPS:/example.com/'])(
    'refuses %j, where the parser would find a host the URL does not show, with 400',
    (raw) => {
      expect(validateDestinationUrl(raw)).toEqual({ ok: false, code: 'invalid_url', message: 'url must be an absolute URL: https:// and then the host.' });
    },
  );

  it.each(['https://example..com/', 'https://.example.com/', 'https://-bad-.com/', 'https://bad-.example.com/', `https://${'a'.repeat(64)}.com/`, 'https://ex*ample.com/'])(
    'refuses the host name of %s, which DNS cannot look up, with 400',
    (raw) => {
      expect(validateDestinationUrl(raw)).toMatchObject({ ok: false, code: 'invalid_url', message: expect.stringContaining('is not a valid host name') });
    },
  );

  it.each(['https://example.com./hook', 'https://my_service.example.com/', 'https://xn--bcher-kva.example/', 'https://bücher.example/', `https://${'a'.repeat(63)}.com/`, 'HTTPS://Example.COM/'])(
    'accepts the host name of %s',
    (raw) => {
      expect(validateDestinationUrl(raw).ok).toBe(true);
    },
  );

  it('accepts a URL of exactly 2,048 characters', () => {
    const base = 'https://example.com/';
    const raw = base + 'a'.repeat(MAX_DESTINATION_URL_LENGTH - base.length);
    expect(raw).toHaveLength(2048);
    expect(validateDestinationUrl(raw).ok).toBe(true);
  });

  it('refuses a URL of 2,049 characters with 400', () => {
    const base = 'https://example.com/';
    expect(validateDestinationUrl(base + 'a'.repeat(2049 - base.length))).toMatchObject({ ok: false, code: 'invalid_url' });
  });

  it('refuses an over-long URL with 400 even when its scheme is wrong', () => {
    expect(validateDestinationUrl(`http://example.com/${'a'.repeat(3000)}`)).toMatchObject({ ok: false, code: 'invalid_url' });
  });

  it.each([' https://example.com/', 'https://example.com/ ', 'https://exa\tmple.com/', 'https://example.com/\n', 'https://example.com/a b'])(
    'refuses %j with whitespace or control characters with 400',
    (raw) => {
      expect(validateDestinationUrl(raw)).toMatchObject({ ok: false, code: 'invalid_url' });
    },
  );
});

describe('validateDestinationUrl: 422 for well-formed URLs that are refused', () => {
  it.each(['http://example.com/hook', 'ftp://example.com/', 'ws://example.com/', 'wss://example.com/', 'javascript:alert(1)', 'mailto:a@example.com', 'file:///etc/passwd', 'data:text/plain,x'])(
    'refuses the non-https URL %s with 422',
    (raw) => {
      expect(validateDestinationUrl(raw)).toMatchObject({ ok: false, code: 'unsupported_url_scheme' });
    },
  );

  it('refuses user:password with 422', () => {
    expect(validateDestinationUrl('https://user:pass@example.com/hook')).toMatchObject({ ok: false, code: 'url_credentials_not_allowed' });
  });

  it('refuses a user name without password with 422', () => {
    expect(validateDestinationUrl('https://user@example.com/hook')).toMatchObject({ ok: false, code: 'url_credentials_not_allowed' });
  });

  it('refuses a password without user name with 422', () => {
    expect(validateDestinationUrl('https://:secret@example.com/hook')).toMatchObject({ ok: false, code: 'url_credentials_not_allowed' });
  });

  it.each([
    'https://127.0.0.1/hook',
    'https://127.0.0.1:8443/hook',
    'https://10.0.0.5/',
    'https://169.254.169.254/latest/meta-data/',
    'https://[::1]/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'https://[::ffff:169.254.169.254]/',
    'https://[fd00::1]/',
    'https://[fe80::1]/',
    'https://[64:ff9b::10.0.0.1]/',
    'https://[2002:7f00:1::1]/',
    'https://0.0.0.0/',
    'https://224.0.0.1/',
    'https://100.64.0.1/',
  ])('refuses the literal-address host of %s with 422', (raw) => {
    expect(validateDestinationUrl(raw)).toMatchObject({ ok: false, code: 'destination_not_allowed' });
  });

  it.each(['https://0x7f.0.0.1/', 'https://0177.0.0.1/', 'https://127.1/', 'https://2130706433/', 'https://0x7f000001/'])(
    'refuses the obfuscated loopback host of %s with 422 (the URL parser normalizes it)',
    (raw) => {
      expect(validateDestinationUrl(raw)).toMatchObject({ ok: false, code: 'destination_not_allowed' });
    },
  );

  it('checks the scheme before the host (http to a private address is a scheme error)', () => {
    expect(validateDestinationUrl('http://127.0.0.1/')).toMatchObject({ code: 'unsupported_url_scheme' });
  });
});

describe('validateDestinationUrl: accepted URLs', () => {
  it('accepts an https URL and returns the parsed URL', () => {
    const result = validateDestinationUrl('https://hooks.example.com/webhooks?x=1');
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(result.url).toBeInstanceOf(URL);
      expect(result.url.hostname).toBe('hooks.example.com');
    }
  });

  it('accepts an upper-case scheme', () => {
    expect(validateDestinationUrl('HTTPS://example.com/').ok).toBe(true);
  });

  it('accepts a non-default port', () => {
    expect(validateDestinationUrl('https://example.com:8443/hook').ok).toBe(true);
  });

  it('accepts a public literal IPv4 host', () => {
    expect(validateDestinationUrl('https://8.8.8.8/hook').ok).toBe(true);
  });

  it('accepts a public literal IPv6 host', () => {
    expect(validateDestinationUrl('https://[2606:4700:4700::1111]/hook').ok).toBe(true);
  });

  it('leaves host names to the resolver (localhost is checked after DNS)', () => {
    expect(validateDestinationUrl('https://localhost/hook').ok).toBe(true);
  });

  it('accepts private literal hosts when allowPrivate is set', () => {
    expect(validateDestinationUrl('https://127.0.0.1:8443/hook', { allowPrivate: true }).ok).toBe(true);
    expect(validateDestinationUrl('https://[::1]:8443/hook', { allowPrivate: true }).ok).toBe(true);
  });

  it('still refuses http and credentials when allowPrivate is set', () => {
    expect(validateDestinationUrl('http://127.0.0.1/', { allowPrivate: true })).toMatchObject({ ok: false, code: 'unsupported_url_scheme' });
    expect(validateDestinationUrl('https://u:p@127.0.0.1/', { allowPrivate: true })).toMatchObject({ ok: false, code: 'url_credentials_not_allowed' });
  });
});
