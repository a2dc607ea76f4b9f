import { createHmac } from 'node:crypto';
import {
  SIGNATURE_PREFIX,
  generateSigningSecret,
  signPayload,
  signStandard,
  standardSigningKey,
} from '../../../src/domain/webhooks/signature';

// Known answers computed independently with:
//   printf '%s' "$BODY" | openssl dgst -sha256 -hmac "$SECRET"
const SECRET = 'whsec_test_secret_0123456789abcdef';
const BODY = '{"id":1,"type":"user.created","data":{"name":"Ada"},"timestamp":1700000000}';
const BODY_SIGNATURE = 'sha256=880f63c45c617bf0c4ba976886bc580446bf38e99aedebb0c6456ceec0427620';
const EMPTY_BODY_SIGNATURE = 'sha256=6f3234c9725f3ca177de3560a25d660460f5051c8ff2a01d16eb8b4a15daa5c2';
const UNICODE_SECRET = 'whsec_ünïcode';
const UNICODE_BODY = '{"id":42,"type":"café.créé","data":{"s":"ü"},"timestamp":1}';
const UNICODE_SIGNATURE = 'sha256=39224293a86a603b3fe8715bb53a126b4fb86f8b46e7a7e6648fdeee7981d18f';

describe('signPayload', () => {
  it('matches the openssl known-answer vector', () => {
    expect(signPayload(SECRET, BODY)).toBe(BODY_SIGNATURE);
  });

  it('matches the RFC-style vector HMAC_SHA256("key", "The quick brown fox…")', () => {
    expect(signPayload('key', 'The quick brown fox jumps over the lazy dog')).toBe(
      'sha256=f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8',
    );
  });

  it('signs an empty body', () => {
    expect(signPayload(SECRET, '')).toBe(EMPTY_BODY_SIGNATURE);
  });

  it('gives the same signature for a string and its UTF-8 Buffer', () => {
    expect(signPayload(SECRET, Buffer.from(BODY, 'utf8'))).toBe(BODY_SIGNATURE);
  });

  it('keys with the whole secret string (whsec_ prefix included) as UTF-8 bytes', () => {
    expect(signPayload(UNICODE_SECRET, UNICODE_BODY)).toBe(UNICODE_SIGNATURE);
  });

  it('is what a reference receiver computes with createHmac(secret)', () => {
    const receiver = createHmac('sha256', SECRET).update(BODY).digest('hex');
    expect(signPayload(SECRET, BODY)).toBe(`sha256=${receiver}`);
  });

  it('does not key with the secret stripped of its whsec_ prefix', () => {
    expect(signPayload(SECRET, BODY)).not.toBe(signPayload(SECRET.slice('whsec_'.length), BODY));
  });

  it('is sha256= followed by 64 lowercase hex digits', () => {
    expect(signPayload(generateSigningSecret(), 'x')).toMatch(/^sha256=[0-9a-f]{64}$/);
  });

  it('changes when one body byte changes', () => {
    expect(signPayload(SECRET, BODY.replace('Ada', 'Adb'))).not.toBe(BODY_SIGNATURE);
  });

  it('refuses an empty secret', () => {
    expect(() => signPayload('', BODY)).toThrow(TypeError);
  });

  it('uses the prefix of the spec', () => {
    expect(SIGNATURE_PREFIX).toBe('sha256=');
  });
});

describe('generateSigningSecret', () => {
  it('is whsec_ followed by standard base64 of 32 random bytes, as Standard Webhooks libraries decode it', () => {
    const secret = generateSigningSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
  });

  it('differs on every call', () => {
    const secrets = new Set(Array.from({ length: 100 }, () => generateSigningSecret()));
    expect(secrets.size).toBe(100);
  });
});

describe('signStandard (Standard Webhooks)', () => {
  it('gives the published Standard Webhooks vector', () => {
    expect(signStandard(['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'], 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}')).toBe(
      'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    );
  });

  it('is keyed with the base64-decoded secret over "<id>.<timestamp>.<body>"', () => {
    const key = Buffer.alloc(24, 7);
    const expected = createHmac('sha256', key).update('42.1700000000.{"a":1}').digest('base64');
    expect(signStandard([`whsec_${key.toString('base64')}`], '42', 1_700_000_000, Buffer.from('{"a":1}'))).toBe(`v1,${expected}`);
  });

  it('gives one space-separated entry per secret, in the order given', () => {
    const [a, b] = [generateSigningSecret(), generateSigningSecret()];
    expect(signStandard([a, b], '1', 2, 'x')).toBe(`${signStandard([a], '1', 2, 'x')} ${signStandard([b], '1', 2, 'x')}`);
  });

  it('refuses a secret that is not standard base64 and an empty list', () => {
    expect(() => standardSigningKey('whsec_a+b-c')).toThrow(TypeError);
    expect(() => standardSigningKey(`whsec_${Buffer.from('fbff'.repeat(8), 'hex').toString('base64url')}`)).toThrow(TypeError);
    expect(() => standardSigningKey('whsec_')).toThrow(TypeError);
    expect(() => signStandard([], '1', 1, 'x')).toThrow(TypeError);
  });
});
