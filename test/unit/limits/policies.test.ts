import { accountPolicy, ANONYMOUS_BURST_PER_MINUTE, anonymousPolicy, clientNetwork } from '../../../src/domain/limits/policies';
import { TIERS } from '../../../src/domain/limits/tiers';

describe('limit policies', () => {
  it('an account policy carries its tier; every account call is counted, also without a quota', () => {
    expect(accountPolicy('acct_1', 'free')).toMatchObject({ burstLimit: 10, quotaLimit: 500, countUsage: true });
    expect(accountPolicy('acct_1', 'enterprise')).toMatchObject({ burstLimit: TIERS.enterprise.burstPerMinute, quotaLimit: Number.POSITIVE_INFINITY, countUsage: true });
    expect(accountPolicy('acct_1', 'free').bucket).not.toBe(accountPolicy('acct_2', 'free').bucket);
  });

  it('anonymous callers: 30 a minute, no quota, no usage records', () => {
    expect(anonymousPolicy('198.51.100.7')).toMatchObject({ burstLimit: ANONYMOUS_BURST_PER_MINUTE, quotaLimit: Number.POSITIVE_INFINITY, countUsage: false });
  });

  it('IPv6 callers share a bucket per /64; another /64 is another bucket', () => {
    const a = anonymousPolicy('2001:db8:1:2:3:4:5:6').bucket;
    expect(anonymousPolicy('2001:db8:1:2::1').bucket).toBe(a);
    expect(anonymousPolicy('2001:db8:1:2:ffff:ffff:ffff:ffff').bucket).toBe(a);
    expect(anonymousPolicy('2001:0db8:0001:0002:0000:0000:0000:0009').bucket).toBe(a);
    expect(anonymousPolicy('2001:db8:1:3::1').bucket).not.toBe(a);
    expect(clientNetwork('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
  });

  it('IPv4 callers have a bucket per address; IPv4-mapped IPv6 is the IPv4 address', () => {
    expect(anonymousPolicy('10.0.0.1').bucket).not.toBe(anonymousPolicy('10.0.0.2').bucket);
    expect(anonymousPolicy('::ffff:10.0.0.1').bucket).toBe(anonymousPolicy('10.0.0.1').bucket);
    expect(clientNetwork('::ffff:10.0.0.1')).toBe('10.0.0.1');
  });
});
