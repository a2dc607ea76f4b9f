import { DomainError } from '../../../src/domain/errors';
import { metricsRegistry } from '../../../src/infra/metrics';
import { IngestAdmission, ingestConcurrencyTuning } from '../../../src/services/ingest-admission';

interface OutboxState {
  backlog?: number;
  /** Per account: how long its oldest start has waited, and how long a new one would. */
  waitMs?: Record<string, number>;
  expectedWaitMs?: Record<string, number>;
  /** Accounts at or above an equal share of what was accepted, and of what waits. */
  heavy?: string[];
  queueHeavy?: string[];
}

function outbox(state: OutboxState) {
  return {
    get backlog() {
      return state.backlog ?? 0;
    },
    accountWaitMs: (a: string) => state.waitMs?.[a] ?? 0,
    accountExpectedWaitMs: (a: string) => state.expectedWaitMs?.[a] ?? 0,
    atOrAboveShare: (a: string) => state.heavy?.includes(a) ?? false,
    holdsShareOfBacklog: (a: string) => state.queueHeavy?.includes(a) ?? false,
  };
}

const OPTIONS = { backlogLimit: 100, maxBacklogMs: 2_000, maxLoopDelayMs: 250 };

function admission(state: OutboxState & { loopP99Ms?: number }) {
  return new IngestAdmission(outbox(state), { sustainedP99Ms: () => state.loopP99Ms ?? 0 }, OPTIONS);
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
  it("takes a new event while the account's starts are young and the process keeps up", () => {
    expect(admission({ backlog: 99, waitMs: { a: 2_000 }, heavy: ['a'], queueHeavy: ['a'], loopP99Ms: 250 }).refusal('a')).toBeNull();
  });

  it("refuses an account once its own oldest start has waited longer than MAX_BACKLOG_S, and not another account", () => {
    const gate = admission({ waitMs: { flood: 2_001 } });
    expect([gate.refusal('flood'), gate.refusal('quiet')]).toEqual(['backlog_age', null]);
  });

  it("refuses an account whose new event would wait longer than half of MAX_BACKLOG_S at the rate its turns come", () => {
    const gate = admission({ waitMs: { flood: 500 }, expectedWaitMs: { flood: 1_001 } });
    expect([gate.refusal('flood'), gate.refusal('quiet')]).toEqual(['backlog_age', null]);
  });

  it("takes a new event whose predicted wait is within half of MAX_BACKLOG_S", () => {
    expect(admission({ waitMs: { a: 500 }, expectedWaitMs: { a: 1_000 } }).refusal('a')).toBeNull();
  });

  it("refuses an account whose new event would wait to start and then for a place here longer than half of MAX_BACKLOG_S, and not another account", () => {
    const placesWaitMs = (a: string) => (a === 'flood' ? 600 : 0);
    const gate = new IngestAdmission(outbox({ expectedWaitMs: { flood: 500, quiet: 500 } }), { sustainedP99Ms: () => 0 }, { ...OPTIONS, placesWaitMs });
    expect([gate.refusal('flood'), gate.refusal('quiet')]).toEqual(['backlog_age', null]);
  });

  it('refuses an account whose deliveries the workers see falling behind, and not another account', () => {
    const gate = new IngestAdmission(outbox({}), { sustainedP99Ms: () => 0 }, { ...OPTIONS, lagging: (a) => a === 'late' });
    expect([gate.refusal('late'), gate.refusal('prompt')]).toEqual(['delivery_lag', null]);
  });

  it('refuses at the backlog limit only the accounts holding at least an equal share of what waits', () => {
    const gate = admission({ backlog: 100, queueHeavy: ['flood'], heavy: ['quiet'] });
    expect([gate.refusal('flood'), gate.refusal('quiet')]).toEqual(['backlog_count', null]);
  });

  it('refuses while the event loop lags past its bound only the accounts taking at least an equal share', () => {
    const gate = admission({ loopP99Ms: 251, heavy: ['flood'] });
    expect([gate.refusal('flood'), gate.refusal('quiet')]).toEqual(['event_loop', null]);
  });

  it('a refusal after a calm spell is 503 overloaded with Retry-After 1 s, saying the account is over its share', () => {
    const refused = refusal(() => admission({ waitMs: { a: 60_000 } }).admit('a'));
    expect(refused?.code).toBe('overloaded');
    expect(refused?.retryAfterSeconds).toBe(1);
    expect(refused?.message).toContain('over its share');
  });
});

describe('IngestAdmission in flight', () => {
  const tuning = { min: 2, max: 8, targetMs: 250, increase: 1, decrease: 0.5, intervalMs: 1_000 };

  it('refuses a new ingest of an account holding the places in flight, and takes one again when one is answered', () => {
    const gate = new IngestAdmission(outbox({}), { sustainedP99Ms: () => 0 }, OPTIONS, { ...tuning, min: 2, max: 2 });
    const first = gate.admit('a');
    gate.admit('a');
    expect(() => gate.admit('a')).toThrow(expect.objectContaining({ code: 'overloaded' }));
    first.release();
    first.release(); // releasing twice frees one place, once
    expect(() => gate.admit('a')).not.toThrow();
    expect(() => gate.admit('a')).toThrow(expect.objectContaining({ code: 'overloaded' }));
  });

  it('takes an ingest of an account with fewer in flight than an equal share, even at the limit', () => {
    const gate = new IngestAdmission(outbox({}), { sustainedP99Ms: () => 0 }, OPTIONS, { ...tuning, min: 2, max: 2 });
    gate.admit('flood');
    gate.admit('flood');
    expect(() => gate.admit('quiet')).not.toThrow();
    expect(() => gate.admit('flood')).toThrow(expect.objectContaining({ code: 'overloaded' }));
  });

  it('lets fewer in when ingests answer slower than the target (a slow store)', () => {
    let now = 0;
    const gate = new IngestAdmission(outbox({}), { sustainedP99Ms: () => 0 }, OPTIONS, tuning, () => now);
    expect(admittedBeforeRefusal(new IngestAdmission(outbox({}), { sustainedP99Ms: () => 0 }, OPTIONS, tuning, () => now))).toBe(8);
    const tickets = Array.from({ length: 4 }, () => gate.admit('a'));
    now = 1_000; // each took a second
    for (const ticket of tickets) ticket.release();
    expect(admittedBeforeRefusal(gate)).toBe(4);
  });
});

/** How many ingests of one account the gate takes, none released, before it refuses one: its concurrency limit seen from outside. */
function admittedBeforeRefusal(gate: IngestAdmission): number {
  for (let taken = 0; taken < 1_000; taken++) {
    try {
      gate.admit('probe');
    } catch {
      return taken;
    }
  }
  throw new Error('never refused');
}

describe('IngestAdmission per process role', () => {
  function limitAfterIngestsOf(ms: number, workerInProcess: boolean): number {
    let now = 0;
    const gate = new IngestAdmission(outbox({}), { sustainedP99Ms: () => 0 }, OPTIONS, ingestConcurrencyTuning(workerInProcess), () => now);
    now = 1_000 - ms;
    const tickets = Array.from({ length: 10 }, () => gate.admit('a'));
    now = 1_000;
    for (const ticket of tickets) ticket.release();
    return admittedBeforeRefusal(gate);
  }

  it('lets fewer ingests in when they take 200 ms in an API-only process, whose ingests wait behind the worker', () => {
    expect(limitAfterIngestsOf(200, false)).toBeLessThan(limitAfterIngestsOf(100, false));
  });

  it('keeps its ingests in flight when they take 200 ms in a process that also delivers', () => {
    expect(limitAfterIngestsOf(200, true)).toBe(limitAfterIngestsOf(100, true));
  });
});

describe('IngestAdmission Retry-After', () => {
  it('tells refused callers to wait longer the more calls it refuses per call it takes', () => {
    const state: OutboxState = {};
    const gate = new IngestAdmission(outbox(state), { sustainedP99Ms: () => 0 }, OPTIONS);
    for (let i = 0; i < 10; i++) gate.admit('a').release();
    state.waitMs = { a: 5_000 };
    const advised = Array.from({ length: 60 }, () => refusal(() => gate.admit('a'))?.retryAfterSeconds);
    expect(advised[0]).toBe(1);
    // 59 refused before it per 10 taken: 17 s, drawn between 9 and 17 s.
    expect(advised[59]).toBeGreaterThanOrEqual(9);
    expect(advised[59]).toBeLessThanOrEqual(17);
  });
});

async function shedCounts(): Promise<Record<string, number>> {
  const metric = await metricsRegistry.getSingleMetric('webhook_ingest_shed_total')!.get();
  return Object.fromEntries(metric.values.map((v) => [String(v.labels.reason), v.value]));
}

describe('IngestAdmission admit (one decision per ingest)', () => {
  const tuning = { min: 1, max: 1, targetMs: 250, increase: 1, decrease: 0.5, intervalMs: 1_000 };

  it('records one reason per refused call', async () => {
    const before = await shedCounts();
    refusal(() => admission({ waitMs: { a: 60_000 } }).admit('a'));
    const after = await shedCounts();
    const moved = Object.keys(after).filter((reason) => after[reason] !== before[reason]);
    expect(moved.map((reason) => [reason, after[reason] - before[reason]])).toEqual([['backlog_age', 1]]);
  });

  it('takes no place for a refused call', () => {
    const state: OutboxState = { waitMs: { a: 60_000 } };
    const gate = new IngestAdmission(outbox(state), { sustainedP99Ms: () => 0 }, OPTIONS, tuning);
    expect(refusal(() => gate.admit('a'))?.code).toBe('overloaded');
    state.waitMs = {};
    expect(() => gate.admit('a')).not.toThrow();
  });

  it('hands back a ticket naming the account it admitted', () => {
    expect(admission({}).admit('a').accountId).toBe('a');
  });
});
