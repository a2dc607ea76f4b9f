import { loadConfig } from '../../../src/config/config';

/** DELIVERY_LOCAL_LISTENER (docs/receiving.md#cli-listen): on by default only for the embedded platform. */
describe('DELIVERY_LOCAL_LISTENER', () => {
  const flag = (env: NodeJS.ProcessEnv) => loadConfig(env).delivery.localListener;

  it('is on by default for the embedded platform (no MONGODB_URI, no TEMPORAL_ADDRESS)', () => {
    expect(flag({})).toBe(true);
    expect(flag({ MONGODB_URI: '', TEMPORAL_ADDRESS: '' })).toBe(true);
  });

  it.each([
    ['MONGODB_URI is set', { MONGODB_URI: 'mongodb://db:27017/' }],
    ['TEMPORAL_ADDRESS is set', { TEMPORAL_ADDRESS: 'temporal:7233' }],
    ['NODE_ENV is production', { NODE_ENV: 'production', SECRETS_ENCRYPTION_KEY: Buffer.alloc(32).toString('base64') }],
  ])('is off by default when %s', (_why, env) => {
    expect(flag(env)).toBe(false);
  });

  it('follows an explicit value either way', () => {
    expect(flag({ MONGODB_URI: 'mongodb://db:27017/', DELIVERY_LOCAL_LISTENER: 'true' })).toBe(true);
    expect(flag({ DELIVERY_LOCAL_LISTENER: 'false' })).toBe(false);
  });

  it('refuses a value that is not a boolean', () => {
    expect(() => loadConfig({ DELIVERY_LOCAL_LISTENER: 'maybe' })).toThrow(/DELIVERY_LOCAL_LISTENER/);
  });
});
