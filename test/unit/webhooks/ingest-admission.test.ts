import { DomainError } from '../../../src/domain/errors';
import { IngestAdmission } from '../../../src/services/ingest-admission';

function admission(state: { backlog?: number; oldestWaitMs?: number; expectedWaitMs?: number; loopP99Ms?: number }) {
  return new IngestAdmission(
    { backlog: state.backlog ?? 0, oldestWaitMs: () => state.oldestWaitMs ?? 0, expectedWaitMs: () => state.expectedWaitMs ?? 0 },
    { sustainedP99Ms: () => state.loopP99Ms ?? 0 },
    { backlogLimit: 100, maxBacklogMs: 2_000, maxLoopDelayMs: 250 },
  );
}

function refusal(check: () => void): DomainError | null {
  try {
    check();
    return null;
  } catch (err) {
    return err as DomainError;
  }
}

describe('IngestAdmission', () => {
  it('takes a new event while the backlog is young and the event loop keeps up', () => {
    expect(admission({ backlog: 99, oldestWaitMs: 2_000, loopP99Ms: 250 }).refusal()).toBeNull();
  });

  it('refuses at the backlog limit (a memory bound)', () => {
    expect(admission({ backlog: 100 }).refusal()).toBe('backlog_count');
  });

  it('refuses once the oldest accepted event has waited longer than MAX_BACKLOG_S', () => {
    expect(admission({ backlog: 3, oldestWaitMs: 2_001 }).refusal()).toBe('backlog_age');
  });

  it('refuses when a new event would wait longer than MAX_BACKLOG_S at the rate the backlog moves', () => {
    expect(admission({ backlog: 50, oldestWaitMs: 500, expectedWaitMs: 2_001 }).refusal()).toBe('backlog_age');
  });

  it('refuses while the event loop lags past its bound (the process is out of CPU)', () => {
    expect(admission({ loopP99Ms: 251 }).refusal()).toBe('event_loop');
  });

  it('a refusal after a calm spell is 503 overloaded with Retry-After 1 s', () => {
    const refused = refusal(() => admission({ oldestWaitMs: 60_000 }).check());
    expect(refused?.code).toBe('overloaded');
    expect(refused?.retryAfterSeconds).toBe(1);
  });
});

describe('IngestAdmission in flight', () => {
  const tuning = { min: 2, max: 8, targetMs: 250, increase: 1, decrease: 0.5, intervalMs: 1_000 };

  it('refuses a new ingest while as many as its limit are in flight, and takes one again when one is answered', () => {
    const admission = new IngestAdmission({ backlog: 0, oldestWaitMs: () => 0, expectedWaitMs: () => 0 }, { sustainedP99Ms: () => 0 }, { backlogLimit: 100, maxBacklogMs: 2_000, maxLoopDelayMs: 250 }, { ...tuning, min: 2, max: 2 });
    const first = admission.enter();
    admission.enter();
    expect(() => admission.enter()).toThrow(expect.objectContaining({ code: 'overloaded' }));
    first();
    first(); // answering twice frees one place, once
    expect(() => admission.enter()).not.toThrow();
    expect(() => admission.enter()).toThrow(expect.objectContaining({ code: 'overloaded' }));
  });

  it('lets fewer in when ingests answer slower than the target (a slow store)', () => {
    let now = 0;
    const admission = new IngestAdmission({ backlog: 0, oldestWaitMs: () => 0, expectedWaitMs: () => 0 }, { sustainedP99Ms: () => 0 }, { backlogLimit: 100, maxBacklogMs: 2_000, maxLoopDelayMs: 250 }, tuning, () => now);
    expect(admission.concurrencyLimit).toBe(8);
    const answers = Array.from({ length: 4 }, () => admission.enter());
    now = 1_000; // each took a second
    for (const answered of answers) answered();
    expect(admission.concurrencyLimit).toBe(4);
  });
});

describe('IngestAdmission Retry-After', () => {
  it('tells refused callers to wait longer the more calls it refuses per call it takes', () => {
    const backlog = { backlog: 0, oldestWaitMs: () => 0, expectedWaitMs: () => 0 };
    const admission = new IngestAdmission(backlog, { sustainedP99Ms: () => 0 }, { backlogLimit: 100, maxBacklogMs: 2_000, maxLoopDelayMs: 250 });
    for (let i = 0; i < 10; i++) admission.enter()();
    backlog.oldestWaitMs = () => 5_000;
    const advised = Array.from({ length: 60 }, () => refusal(() => admission.enter())?.retryAfterSeconds);
    expect(advised[0]).toBe(1);
    // 60 refused per 10 taken: 6 s, drawn between 3 and 6 s.
    expect(advised[59]).toBeGreaterThanOrEqual(3);
    expect(advised[59]).toBeLessThanOrEqual(6);
  });
});

describe('IngestAdmission screen (asked before the call is metered)', () => {
  const tuning = { min: 1, max: 1, targetMs: 250, increase: 1, decrease: 0.5, intervalMs: 1_000 };
  const calm = { backlog: 0, oldestWaitMs: () => 0, expectedWaitMs: () => 0 };
  const options = { backlogLimit: 100, maxBacklogMs: 2_000, maxLoopDelayMs: 250 };

  it('refuses what enter would refuse, with the same 503', () => {
    const refused = refusal(() => admission({ oldestWaitMs: 60_000 }).screen());
    expect(refused?.code).toBe('overloaded');
  });

  it('refuses while the ingests in flight fill the limit', () => {
    const gate = new IngestAdmission(calm, { sustainedP99Ms: () => 0 }, options, tuning);
    gate.enter();
    expect(refusal(() => gate.screen())?.code).toBe('overloaded');
  });

  it('takes no place: a screened call leaves the place to the call that enters', () => {
    const gate = new IngestAdmission(calm, { sustainedP99Ms: () => 0 }, options, tuning);
    gate.screen();
    gate.screen();
    expect(() => gate.enter()).not.toThrow();
  });
});
