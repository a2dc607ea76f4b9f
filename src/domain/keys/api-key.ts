import { hash, randomBytes } from 'node:crypto';
import { Product } from './products';

/** CONTRACT §2: the only shape a key can have. */
export const API_KEY_PATTERN = /^svc_live_(weh|sec|pii|dep|rat|api)_[0-9a-f]{32}$/;

/** 128 random bits from a CSPRNG; the full string exists only in the creation response. */
export function generateApiKey(product: Product): string {
  return `svc_live_${product}_${randomBytes(16).toString('hex')}`;
}

/** Unsalted SHA-256 suffices for 128-bit random keys; a slow password hash would cost ms per request. One-shot: no Hash object per call. */
export function hashApiKey(key: string): string {
  return hash('sha256', key, 'hex');
}

export function parseApiKey(key: string) {
  const match = API_KEY_PATTERN.exec(key);
  if (!match) return null;
  return {
    product: match[1] as Product,
    hash: hashApiKey(key),
    lastFour: key.slice(-4),
    displayPrefix: `svc_live_${match[1]}_`,
  };
}
