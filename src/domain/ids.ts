import { randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `<prefix>_` + 24 base62 characters from a CSPRNG (~143 bits): record ids that reveal nothing. */
export function newId(prefix: 'acct' | 'key' | 'ep' | 'sess' | 'usr'): string {
  const bytes = randomBytes(24);
  let out = '';
  // 256 % 62 bias is negligible for identifiers (not secrets).
  for (const b of bytes) out += BASE62[b % 62];
  return `${prefix}_${out}`;
}
