import { MAX_RECOVERY_WINDOW_MS, recoverySinceProblem, recoveryWorkflowId } from '../../../src/domain/webhooks/recovery';

describe('bulk recovery rules', () => {
  const now = new Date('2026-11-22T12:00:00Z');

  it('accepts a time within the last 7 days, and now itself', () => {
    expect(recoverySinceProblem(new Date(now.getTime() - MAX_RECOVERY_WINDOW_MS), now)).toBeNull();
    expect(recoverySinceProblem(now, now)).toBeNull();
  });

  it('refuses a time more than 7 days back', () => {
    expect(recoverySinceProblem(new Date(now.getTime() - MAX_RECOVERY_WINDOW_MS - 1), now)).toBe('since must be within the last 7 days.');
  });

  it('refuses a time in the future', () => {
    expect(recoverySinceProblem(new Date(now.getTime() + 1), now)).toBe('since must not be in the future.');
  });

  it('refuses a value that is not a date and time', () => {
    expect(recoverySinceProblem(new Date('not a time'), now)).toBe('since must be a date and time.');
  });

  it('runs one recovery per endpoint: its workflow id is derived from the endpoint id', () => {
    expect(recoveryWorkflowId('ep_abc')).toBe('recover-ep_abc');
  });
});
