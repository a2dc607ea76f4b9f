/**
 * One case of ../../test-vectors.json. Declared once, here: vectors.test.ts reads the file with it,
 * and the platform's generator (test/support/test-vectors.ts, `npm run vectors`) imports it as a
 * type only, so this package keeps no dependency on the platform.
 */
import type { Scheme, VerificationErrorCode } from '../src/core';

export interface TestVector {
  name: string;
  scheme: Scheme;
  /** What the receiver holds. */
  secrets: string[];
  headers: Record<string, string>;
  /** The raw body, UTF-8. */
  body: string;
  /** The receiver's clock, Unix seconds. */
  now: number;
  tolerance_seconds?: number;
  /** false: do not compare the headers with the body's fields (for bodies that are not the platform's). */
  check_body?: boolean;
  expected: { valid: true; event_id: number | null } | { valid: false; error: VerificationErrorCode };
}
