import { outboxWaitBoundMs } from '../../../src/domain/flow-control/backlog-budget';

describe('backlog budget: how long an outbox may hold an account’s oldest start', () => {
  it('gives the outbox the whole of MAX_BACKLOG_S where the worker runs in the same process', () => {
    expect(outboxWaitBoundMs(2_000, true)).toBe(2_000);
  });

  it('gives an API-only process’s outbox half of it, the wait in Temporal’s queue coming on top', () => {
    expect(outboxWaitBoundMs(2_000, false)).toBe(1_000);
  });
});
