import { MAX_SECRETS_ALIVE, rotateSecretSet, secretsInGrace } from '../../../src/domain/webhooks/secret-rotation';

const NOW = new Date('2026-01-01T00:00:00Z');
const at = (seconds: number) => new Date(NOW.getTime() + seconds * 1000);

describe('rotateSecretSet', () => {
  it('keeps the replaced secret signing for the grace period', () => {
    expect(rotateSecretSet({ secret_sealed: 'old' }, 'new', 3600, NOW)).toEqual({ secret_sealed: 'new', previous_secrets: [{ sealed: 'old', expires_at: at(3600) }] });
  });

  it('with a grace of 0 the replaced secret stops at once', () => {
    expect(rotateSecretSet({ secret_sealed: 'old' }, 'new', 0, NOW)).toEqual({ secret_sealed: 'new', previous_secrets: [] });
  });

  it('with a grace of 0 every earlier secret still in its grace stops at once too', () => {
    const set = { secret_sealed: 'b', previous_secrets: [{ sealed: 'a', expires_at: at(3600) }] };
    expect(rotateSecretSet(set, 'c', 0, NOW)).toEqual({ secret_sealed: 'c', previous_secrets: [] });
  });

  it('keeps earlier secrets in their own grace, newest first, and forgets expired ones', () => {
    const set = { secret_sealed: 'b', previous_secrets: [{ sealed: 'a', expires_at: at(100) }, { sealed: 'z', expires_at: at(-1) }] };
    expect(rotateSecretSet(set, 'c', 50, NOW).previous_secrets).toEqual([
      { sealed: 'b', expires_at: at(50) },
      { sealed: 'a', expires_at: at(100) },
    ]);
  });

  it(`never has more than ${MAX_SECRETS_ALIVE} secrets alive: the ones expiring first are dropped`, () => {
    let set = { secret_sealed: 's0', previous_secrets: [] as { sealed: string; expires_at: Date }[] };
    for (let i = 1; i <= 7; i++) set = rotateSecretSet(set, `s${i}`, 1000 + i, NOW);
    expect(set.secret_sealed).toBe('s7');
    expect(set.previous_secrets.map((s) => s.sealed)).toEqual(['s6', 's5', 's4', 's3']);
  });
});

describe('secretsInGrace', () => {
  it('is empty before any rotation and drops a secret at its expiry instant', () => {
    expect(secretsInGrace({ secret_sealed: 'x' }, NOW)).toEqual([]);
    const set = { secret_sealed: 'x', previous_secrets: [{ sealed: 'a', expires_at: at(0) }, { sealed: 'b', expires_at: at(1) }] };
    expect(secretsInGrace(set, NOW).map((s) => s.sealed)).toEqual(['b']);
  });
});
