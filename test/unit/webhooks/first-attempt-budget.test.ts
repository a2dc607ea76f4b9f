import { DELIVERY_TIMEOUT_MS } from '../../../activities/http-sender';
import { DELIVERY_TASK_TIMEOUT_MS, HAND_OFF_AFTER_MS, holdUpToMs, SDK_EXTENDS_TASK_AT } from '../../../src/domain/webhooks/first-attempt-budget';

describe('how long a first attempt may keep its workflow task', () => {
  it('holds a delivery run\'s task for a whole POST up to its 30 s limit', () => {
    expect(holdUpToMs(DELIVERY_TASK_TIMEOUT_MS)).toBeGreaterThanOrEqual(DELIVERY_TIMEOUT_MS);
  });

  it('ends the hold before the SDK would extend the task, with time left for its completion', () => {
    for (const timeout of [10_000, DELIVERY_TASK_TIMEOUT_MS, 120_000]) expect(holdUpToMs(timeout)).toBeLessThan(timeout * SDK_EXTENDS_TASK_AT);
  });

  it('holds a run started with Temporal\'s 10 s default (before the hold) for 6 s', () => {
    expect(holdUpToMs(10_000)).toBe(6_000);
  });

  it('never holds for less than the hand-off budget', () => {
    expect(holdUpToMs(1_000)).toBe(HAND_OFF_AFTER_MS);
  });
});
