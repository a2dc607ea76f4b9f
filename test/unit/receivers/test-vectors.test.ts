import { readFileSync } from 'node:fs';
import { VECTORS_FILE } from '../../../scripts/vectors';
import { buildTestVectors } from '../../support/test-vectors';

describe('receivers/test-vectors.json', () => {
  it('is what `npm run vectors` makes from the platform signing code now', () => {
    const checkedIn = JSON.parse(readFileSync(VECTORS_FILE, 'utf8'));
    expect(checkedIn).toEqual(JSON.parse(JSON.stringify(buildTestVectors())));
  });

  it('holds the published Standard Webhooks vector with its published signature', () => {
    const published = buildTestVectors().vectors.find((v) => v.headers['webhook-id'] === 'msg_p5jXN8AQM9LWM0D4loKWxJek');
    expect(published?.headers['webhook-signature']).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
    expect(published?.expected).toEqual({ valid: true, event_id: null });
  });

  it('covers every error code and both schemes', () => {
    const { vectors, error_codes } = buildTestVectors();
    const seen = new Set(vectors.map((v) => (v.expected.valid ? 'valid' : v.expected.error)));
    for (const code of ['valid', ...error_codes]) expect(seen).toContain(code);
    expect(new Set(vectors.map((v) => v.scheme))).toEqual(new Set(['standard', 'spec']));
  });
});
