/** Signing secrets at rest: AES-256-GCM, a fresh IV per seal; `v1.` leaves room for key rotation. Never log plaintexts or keys. */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

export const SECRET_BOX_KEY_BYTES = 32;
export const SECRET_BOX_VERSION = 'v1';
const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class SecretBoxError extends Error {
  override name = 'SecretBoxError';
}

export type SecretBox = ReturnType<typeof createSecretBox>;

export function createSecretBox(key: Buffer) {
  if (!(key instanceof Uint8Array) || key.length !== SECRET_BOX_KEY_BYTES) {
    throw new RangeError(`secret box key must be exactly ${SECRET_BOX_KEY_BYTES} bytes`);
  }
  // Private copy: later mutation of the caller's buffer cannot change or leak the key in use.
  const keyCopy = Buffer.from(key);

  return {
    seal(plain: string): string {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv(ALGORITHM, keyCopy, iv, { authTagLength: TAG_BYTES });
      const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      const tag = cipher.getAuthTag();
      return `${SECRET_BOX_VERSION}.${iv.toString('base64url')}.${ciphertext.toString('base64url')}.${tag.toString('base64url')}`;
    },

    /** Throws SecretBoxError when `sealed` is malformed, tampered with, or sealed under another key. */
    open(sealed: string): string {
      if (typeof sealed !== 'string') throw new SecretBoxError('sealed value must be a string');
      const parts = sealed.split('.');
      if (parts.length !== 4 || parts[0] !== SECRET_BOX_VERSION) {
        throw new SecretBoxError(`sealed value is not in the ${SECRET_BOX_VERSION} format`);
      }
      const iv = decodeBase64url(parts[1] as string, 'iv');
      const ciphertext = decodeBase64url(parts[2] as string, 'ciphertext');
      const tag = decodeBase64url(parts[3] as string, 'tag');
      if (iv.length !== IV_BYTES) throw new SecretBoxError('sealed value has an IV of the wrong length');
      // A short tag would weaken GCM's authentication, so only full-length tags are accepted.
      if (tag.length !== TAG_BYTES) throw new SecretBoxError('sealed value has an auth tag of the wrong length');
      try {
        const decipher = createDecipheriv(ALGORITHM, keyCopy, iv, { authTagLength: TAG_BYTES });
        decipher.setAuthTag(tag);
        return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
      } catch {
        throw new SecretBoxError('sealed value failed authentication (tampered or sealed with another key)');
      }
    },
  };
}

/** Strict base64url: Node's decoder skips invalid characters, padding and stray trailing bits, which would hide tampering. */
function decodeBase64url(text: string, what: string): Buffer {
  const bytes = Buffer.from(text, 'base64url');
  if (bytes.toString('base64url') !== text) throw new SecretBoxError(`sealed value has a malformed ${what}`);
  return bytes;
}
