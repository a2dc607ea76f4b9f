import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  MAX_ATTEMPTS,
  RETRY_DELAYS_MS,
  delayAfterAttempt,
} from '../../../src/domain/webhooks/retry-schedule';

const SECOND = 1000;

describe('retry schedule', () => {
  it('is 1 s, 5 s, 30 s, 5 min, 30 min, 2 h, 24 h after attempts 1..7', () => {
    expect(RETRY_DELAYS_MS).toEqual([1, 5, 30, 300, 1800, 7200, 86400].map((s) => s * SECOND));
  });

  it('allows at most 8 attempts', () => {
    expect(MAX_ATTEMPTS).toBe(8);
  });

  it('is frozen so no caller can change it at run time', () => {
    expect(Object.isFrozen(RETRY_DELAYS_MS)).toBe(true);
  });

  it.each([
    [1, 1 * SECOND],
    [2, 5 * SECOND],
    [3, 30 * SECOND],
    [4, 5 * 60 * SECOND],
    [5, 30 * 60 * SECOND],
    [6, 2 * 3600 * SECOND],
    [7, 24 * 3600 * SECOND],
  ])('waits %i → %i ms before the next attempt', (attempt, delay) => {
    expect(delayAfterAttempt(attempt)).toBe(delay);
  });

  it('has no next attempt after attempt 8 (delivery failed)', () => {
    expect(delayAfterAttempt(8)).toBeNull();
  });

  it('has no next attempt after an attempt beyond 8', () => {
    expect(delayAfterAttempt(9)).toBeNull();
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])('refuses the attempt number %p', (attempt) => {
    expect(() => delayAfterAttempt(attempt)).toThrow(RangeError);
  });

  it('imports nothing, so Temporal workflow code can use it deterministically', () => {
    const source = readFileSync(join(__dirname, '../../../src/domain/webhooks/retry-schedule.ts'), 'utf8');
    expect(source).not.toMatch(/^\s*import\s/m);
    expect(source).not.toMatch(/require\(/);
    expect(source).not.toMatch(/Date\.now|new Date|Math\.random|performance\.now|process\./);
  });
});
