/** Every case of ../test-vectors.json, through both verifiers (WebCrypto and node:crypto). */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { verify, VerifyOptions, WebhookVerificationError } from '../src/index';
import { verifySync } from '../src/node';
import type { TestVector } from './vector';

const { vectors } = JSON.parse(readFileSync(path.join(__dirname, '..', '..', 'test-vectors.json'), 'utf8')) as { vectors: TestVector[] };

const optionsOf = (v: TestVector): VerifyOptions => ({
  secrets: v.secrets,
  scheme: v.scheme,
  now: () => v.now,
  toleranceSeconds: v.tolerance_seconds,
  checkBody: v.check_body,
});

async function outcome(run: () => Promise<{ event?: { id: number } }>): Promise<TestVector['expected']> {
  try {
    const verified = await run();
    return { valid: true, event_id: verified.event?.id ?? null };
  } catch (err) {
    if (!(err instanceof WebhookVerificationError)) throw err;
    return { valid: false, error: err.code };
  }
}

describe('test vectors', () => {
  it('are there', () => assert.ok(vectors.length > 50));
  for (const v of vectors) {
    it(`${v.name} (WebCrypto)`, async () => {
      assert.deepEqual(await outcome(() => verify(Buffer.from(v.body, 'utf8'), v.headers, optionsOf(v))), v.expected);
    });
    it(`${v.name} (node:crypto)`, async () => {
      assert.deepEqual(await outcome(async () => verifySync(v.body, new Headers(v.headers), optionsOf(v))), v.expected);
    });
  }
});
