import { loadConfig } from '../../../src/config/config';

describe('loadConfig: abuse limits and DNS settings', () => {
  it('has documented defaults', () => {
    const config = loadConfig({});
    expect(config.trustProxy).toBe(false);
    expect(config.trustProxyHops).toBe(1);
    expect(config.maxEndpointsPerAccount).toBe(100);
    expect(config.dns).toEqual({ servers: undefined, timeoutMs: 5_000, maxConcurrent: 64 });
  });

  it('disables failing endpoints after 5 days unless ENDPOINT_AUTO_DISABLE_HOURS says otherwise', () => {
    expect(loadConfig({}).endpointAutoDisableAfterMs).toBe(5 * 24 * 3_600_000);
    expect(loadConfig({ ENDPOINT_AUTO_DISABLE_HOURS: '36' }).endpointAutoDisableAfterMs).toBe(36 * 3_600_000);
  });

  it('sends endpoint.failing after 5 consecutive failed deliveries unless ENDPOINT_FAILING_AFTER says otherwise', () => {
    expect(loadConfig({}).endpointFailingAfter).toBe(5);
    expect(loadConfig({ ENDPOINT_FAILING_AFTER: '3' }).endpointFailingAfter).toBe(3);
  });

  it('takes name servers as ip, ip:port or [ipv6]:port', () => {
    expect(loadConfig({ DNS_SERVERS: '127.0.0.1:5353, ::1,[2001:db8::1]:53' }).dns.servers).toEqual(['127.0.0.1:5353', '::1', '[2001:db8::1]:53']);
  });

  it.each([['DNS_SERVERS', 'dns.google'], ['DNS_SERVERS', '1.2.3'], ['DNS_SERVERS', '1.2.3.4:0'], ['TRUST_PROXY_HOPS', '0'], ['MAX_ENDPOINTS_PER_ACCOUNT', '0'], ['DNS_TIMEOUT_MS', '10'], ['ENDPOINT_AUTO_DISABLE_HOURS', '0'], ['ENDPOINT_AUTO_DISABLE_HOURS', '1.5'], ['ENDPOINT_FAILING_AFTER', '0']])(
    'refuses %s=%s at start-up',
    (variable, value) => {
      expect(() => loadConfig({ [variable]: value })).toThrow(`Invalid configuration: ${variable}`);
    },
  );
});

describe('loadConfig: event retention', () => {
  it('keeps events 30 days unless EVENT_RETENTION_DAYS says otherwise', () => {
    expect(loadConfig({}).eventRetentionMs).toBe(30 * 86_400_000);
    expect(loadConfig({ EVENT_RETENTION_DAYS: '90' }).eventRetentionMs).toBe(90 * 86_400_000);
  });

  it.each(['7', '1', '0', '8.5'])('refuses EVENT_RETENTION_DAYS=%s: a purge must not outrun bulk recovery (7 days) or the idempotency window', (value) => {
    expect(() => loadConfig({ EVENT_RETENTION_DAYS: value })).toThrow('Invalid configuration: EVENT_RETENTION_DAYS');
  });

  it('accepts the shortest retention, a day past bulk recovery', () => {
    expect(loadConfig({ EVENT_RETENTION_DAYS: '8' }).eventRetentionMs).toBe(8 * 86_400_000);
  });
});

describe('loadConfig: the Temporal SDK log level', () => {
  it('is WARN unless TEMPORAL_SDK_LOG_LEVEL says otherwise', () => {
    expect(loadConfig({}).temporal.sdkLogLevel).toBe('WARN');
    expect(loadConfig({ TEMPORAL_SDK_LOG_LEVEL: 'DEBUG' }).temporal.sdkLogLevel).toBe('DEBUG');
  });

  it('refuses a level the SDK does not have at start-up', () => {
    expect(() => loadConfig({ TEMPORAL_SDK_LOG_LEVEL: 'LOUD' })).toThrow('Invalid configuration: TEMPORAL_SDK_LOG_LEVEL');
  });
});

describe('loadConfig: empty values', () => {
  it('takes an empty METRICS_PORT (a `METRICS_PORT=` line) as unset: no metrics, not a free port', () => {
    expect(loadConfig({ METRICS_PORT: '' }).metrics.port).toBeUndefined();
    expect(loadConfig({ METRICS_PORT: '0' }).metrics.port).toBe(0);
  });
});

describe('loadConfig: settings that open deliveries to private networks, in production', () => {
  const production = { NODE_ENV: 'production', SECRETS_ENCRYPTION_KEY: Buffer.alloc(32).toString('base64') };

  it.each(['DELIVERY_ALLOW_PRIVATE_NETWORKS', 'DELIVERY_LOCAL_LISTENER'])('refuses %s=true at start-up, naming it and the override', (variable) => {
    expect(() => loadConfig({ ...production, [variable]: 'true' })).toThrow(
      new RegExp(`^Invalid configuration: ${variable} set to true is refused when NODE_ENV=production .*ALLOW_UNSAFE_SETTINGS_IN_PRODUCTION=true`),
    );
  });

  it('takes them with ALLOW_UNSAFE_SETTINGS_IN_PRODUCTION=true', () => {
    const config = loadConfig({ ...production, DELIVERY_ALLOW_PRIVATE_NETWORKS: 'true', DELIVERY_LOCAL_LISTENER: 'true', ALLOW_UNSAFE_SETTINGS_IN_PRODUCTION: 'true' });
    expect(config.delivery).toMatchObject({ allowPrivateNetworks: true, localListener: true });
  });

  it('takes them outside production, and their false values anywhere', () => {
    expect(loadConfig({ DELIVERY_ALLOW_PRIVATE_NETWORKS: 'true', DELIVERY_LOCAL_LISTENER: 'true' }).delivery.allowPrivateNetworks).toBe(true);
    expect(loadConfig({ ...production, DELIVERY_ALLOW_PRIVATE_NETWORKS: 'false', DELIVERY_LOCAL_LISTENER: 'false' }).delivery.allowPrivateNetworks).toBe(false);
  });

  it('refuses an override that is not a boolean', () => {
    expect(() => loadConfig({ ...production, ALLOW_UNSAFE_SETTINGS_IN_PRODUCTION: 'please' })).toThrow('Invalid configuration: ALLOW_UNSAFE_SETTINGS_IN_PRODUCTION');
  });
});

describe('loadConfig: PUBLIC_URL', () => {
  it("gives the dashboard PUBLIC_URL's origin when set, and none when not", () => {
    expect(loadConfig({ PUBLIC_URL: 'https://Dash.Example.com:443/base/' }).publicOrigin).toBe('https://dash.example.com');
    expect(loadConfig({}).publicOrigin).toBeUndefined();
  });

  it('refuses a PUBLIC_URL that is not a URL', () => {
    expect(() => loadConfig({ PUBLIC_URL: 'https://[::1/' })).toThrow('Invalid configuration: PUBLIC_URL');
  });

  it.each([
    ['a query', 'https://dash.example.com/?ref=1', 'no query'],
    ['a fragment', 'https://dash.example.com/#top', 'no query'],
    ['credentials', 'https://u:p@dash.example.com/', 'user name'],
  ])('refuses a PUBLIC_URL with %s, which would end up inside every link', (_name, url, fault) => {
    expect(() => loadConfig({ PUBLIC_URL: url })).toThrow(fault);
  });
});
