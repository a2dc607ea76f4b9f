import { headerIdempotencyKey, isIdempotencyKey } from '../../../src/domain/webhooks/idempotency-key';

describe('an idempotency key (CONTRACT §4: 1 to 255 characters)', () => {
  it.each([
    ['a UUID', '2f1c6a8e-4b7d-4a51-9d0e-3c2b1a0f9e8d'],
    ['spaces inside', 'order 42 paid'],
    ['any script', 'commande-payée ключ 注文'],
    ['an emoji (a surrogate pair)', 'order-📦'],
    ['255 characters', 'k'.repeat(255)],
  ])('takes %s', (_name, key) => {
    expect(isIdempotencyKey(key)).toBe(true);
  });

  it.each([
    ['an empty key', ''],
    ['256 characters', 'k'.repeat(256)],
    ['a NUL', 'a\u0000b'],
    ['a line break', 'a\nb'],
    ['DEL', 'a\u007fb'],
    ['a C1 control character', 'a\u0085b'],
    ['an unpaired surrogate', 'a\ud800b'],
  ])('refuses %s', (_name, key) => {
    expect(isIdempotencyKey(key)).toBe(false);
  });

  it("reads a header's bytes as UTF-8, so that a key outside ASCII is the one the body field would give", () => {
    const key = 'commande-payée';
    expect(headerIdempotencyKey(Buffer.from(key, 'utf8').toString('latin1'))).toBe(key);
    expect(headerIdempotencyKey('plain-ascii')).toBe('plain-ascii');
  });

  it('gives no key for header bytes that are not UTF-8', () => {
    expect(headerIdempotencyKey('pay\u00e9e')).toBeUndefined();
  });
});
