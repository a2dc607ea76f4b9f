import { randomBytes } from 'node:crypto';
import { SecretBoxError, createSecretBox } from '../../../src/domain/webhooks/secret-box';

const KEY = Buffer.alloc(32, 7);
const SECRET = 'whsec_Hn3Yl9cP8kqQy2g0m1zQJm4yVQf0z4cW8dV7o6KXWfE';

/** Replaces one base64url character of part `index` so the decoded bytes change. */
function tamperPart(sealed: string, index: number): string {
  const parts = sealed.split('.');
  const part = parts[index] as string;
  const flipped = part[0] === 'A' ? 'B' : 'A';
  parts[index] = `${flipped}${part.slice(1)}`;
  return parts.join('.');
}

describe('createSecretBox', () => {
  it('round-trips a signing secret', () => {
    const box = createSecretBox(KEY);
    expect(box.open(box.seal(SECRET))).toBe(SECRET);
  });

  it('round-trips the empty string', () => {
    const box = createSecretBox(KEY);
    expect(box.open(box.seal(''))).toBe('');
  });

  it('round-trips non-ASCII text', () => {
    const box = createSecretBox(KEY);
    expect(box.open(box.seal('sécret ✓ 秘密'))).toBe('sécret ✓ 秘密');
  });

  it('seals as v1.<iv>.<ciphertext>.<tag> in base64url with a 12-byte IV and a 16-byte tag', () => {
    const sealed = createSecretBox(KEY).seal(SECRET);
    const match = /^v1\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/.exec(sealed);
    expect(match).not.toBeNull();
    const [, iv, ciphertext, tag] = match as RegExpExecArray;
    expect(Buffer.from(iv as string, 'base64url')).toHaveLength(12);
    expect(Buffer.from(ciphertext as string, 'base64url')).toHaveLength(Buffer.byteLength(SECRET));
    expect(Buffer.from(tag as string, 'base64url')).toHaveLength(16);
  });

  it('does not contain the plaintext', () => {
    const sealed = createSecretBox(KEY).seal(SECRET);
    expect(sealed).not.toContain(SECRET.slice(6));
    expect(sealed).not.toContain(Buffer.from(SECRET).toString('base64url'));
  });

  it('uses a fresh IV for every seal (same plaintext, different output)', () => {
    const box = createSecretBox(KEY);
    const a = box.seal(SECRET);
    const b = box.seal(SECRET);
    expect(a).not.toBe(b);
    expect(a.split('.')[1]).not.toBe(b.split('.')[1]);
  });

  it('opens with another box built from the same key (e.g. after a restart)', () => {
    const sealed = createSecretBox(KEY).seal(SECRET);
    expect(createSecretBox(Buffer.from(KEY)).open(sealed)).toBe(SECRET);
  });

  it('is unaffected when the caller later mutates its key buffer', () => {
    const key = Buffer.from(KEY);
    const box = createSecretBox(key);
    const sealed = box.seal(SECRET);
    key.fill(0);
    expect(box.open(sealed)).toBe(SECRET);
  });

  it.each([0, 16, 31, 33, 64])('refuses a key of %i bytes', (length) => {
    expect(() => createSecretBox(randomBytes(length))).toThrow(RangeError);
  });

  it('refuses a key given as a string', () => {
    expect(() => createSecretBox('k'.repeat(32) as unknown as Buffer)).toThrow(RangeError);
  });
});

describe('SecretBox.open on tampered or foreign input', () => {
  const box = createSecretBox(KEY);
  const sealed = box.seal(SECRET);

  it('throws when the ciphertext was modified', () => {
    expect(() => box.open(tamperPart(sealed, 2))).toThrow(SecretBoxError);
  });

  it('throws when the IV was modified', () => {
    expect(() => box.open(tamperPart(sealed, 1))).toThrow(SecretBoxError);
  });

  it('throws when the tag was modified', () => {
    expect(() => box.open(tamperPart(sealed, 3))).toThrow(SecretBoxError);
  });

  it('throws when one bit of the ciphertext is flipped', () => {
    const parts = sealed.split('.');
    const bytes = Buffer.from(parts[2] as string, 'base64url');
    bytes[0] = (bytes[0] as number) ^ 1;
    parts[2] = bytes.toString('base64url');
    expect(() => box.open(parts.join('.'))).toThrow(SecretBoxError);
  });

  it('throws when the ciphertext is truncated', () => {
    const parts = sealed.split('.');
    parts[2] = Buffer.from(parts[2] as string, 'base64url').subarray(1).toString('base64url');
    expect(() => box.open(parts.join('.'))).toThrow(SecretBoxError);
  });

  it('throws when the tag is truncated (no short-tag acceptance)', () => {
    const parts = sealed.split('.');
    parts[3] = Buffer.from(parts[3] as string, 'base64url').subarray(0, 12).toString('base64url');
    expect(() => box.open(parts.join('.'))).toThrow(SecretBoxError);
  });

  it('throws when parts are swapped between two sealed values', () => {
    const other = box.seal('whsec_other_secret_value_of_same_length_xxxxxxx');
    const [v, iv, , tag] = sealed.split('.');
    const foreignCiphertext = other.split('.')[2];
    expect(() => box.open([v, iv, foreignCiphertext, tag].join('.'))).toThrow(SecretBoxError);
  });

  it('throws when sealed under another key', () => {
    const foreign = createSecretBox(Buffer.alloc(32, 8)).seal(SECRET);
    expect(() => box.open(foreign)).toThrow(SecretBoxError);
  });

  it('throws for an unknown version', () => {
    expect(() => box.open(sealed.replace(/^v1\./, 'v2.'))).toThrow(SecretBoxError);
  });

  it('throws for a value with the wrong number of parts', () => {
    expect(() => box.open(sealed.split('.').slice(0, 3).join('.'))).toThrow(SecretBoxError);
    expect(() => box.open(`${sealed}.extra`)).toThrow(SecretBoxError);
  });

  it('throws for non-base64url characters', () => {
    const parts = sealed.split('.');
    parts[2] = `${parts[2]}+/`;
    expect(() => box.open(parts.join('.'))).toThrow(SecretBoxError);
  });

  it('throws for an IV of the wrong length', () => {
    const parts = sealed.split('.');
    parts[1] = randomBytes(16).toString('base64url');
    expect(() => box.open(parts.join('.'))).toThrow(SecretBoxError);
  });

  it.each(['', 'v1', 'v1...', 'plain-text-secret', SECRET])('throws for the malformed value %j', (value) => {
    expect(() => box.open(value)).toThrow(SecretBoxError);
  });

  it('throws for a non-string', () => {
    expect(() => box.open(undefined as unknown as string)).toThrow(SecretBoxError);
  });

  it('never puts the plaintext or key in the error message', () => {
    try {
      box.open(tamperPart(sealed, 2));
      throw new Error('expected open to throw');
    } catch (error) {
      expect((error as Error).message).not.toContain(SECRET);
      expect((error as Error).message).not.toContain(KEY.toString('base64'));
    }
  });
});
