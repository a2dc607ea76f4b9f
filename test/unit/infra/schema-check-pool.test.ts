import { ExactNumber } from '../../../src/domain/webhooks/exact-json';
import { SchemaCheckPool } from '../../../src/infra/schema-check-pool';

/** `{"$ref":"#/$defs/d0"}` where each d<i> is allOf two $refs to d<i+1>: 2^levels checks of the last one per value. */
function fanOut(levels: number, last: Record<string, unknown> = { type: 'object' }): Record<string, unknown> {
  const defs: Record<string, unknown> = { [`d${levels}`]: last };
  for (let i = 0; i < levels; i++) defs[`d${i}`] = { allOf: [{ $ref: `#/$defs/d${i + 1}` }, { $ref: `#/$defs/d${i + 1}` }] };
  return { $defs: defs, $ref: '#/$defs/d0' };
}

const ORDER = { type: 'object', required: ['amount'], properties: { amount: { type: 'integer', maximum: 100 } } };

describe('SchemaCheckPool (event-type schemas on worker threads, each task within a deadline)', () => {
  let pool: SchemaCheckPool;
  afterEach(async () => {
    await pool.close();
  });

  it('compiles a schema and checks its example against it', async () => {
    pool = new SchemaCheckPool();
    await expect(pool.compile(ORDER, { amount: 5 })).resolves.toEqual({ ok: true, exampleFailures: null });
    await expect(pool.compile(ORDER, { amount: 500 })).resolves.toMatchObject({ ok: true, exampleFailures: [{ path: 'data.amount' }] });
    await expect(pool.compile({ type: 'objekt' }, null)).resolves.toMatchObject({ ok: false, details: expect.arrayContaining([{ path: 'schema.type', message: 'must be array' }]) });
  });

  it('checks data against a stored schema, an exact number as its nearest double', async () => {
    pool = new SchemaCheckPool();
    await expect(pool.check('k1', ORDER, { amount: 7 })).resolves.toBeNull();
    await expect(pool.check('k1', ORDER, { amount: 101 })).resolves.toMatchObject([{ path: 'data.amount' }]);
    await expect(pool.check('k1', ORDER, { amount: new ExactNumber('100.00000000000000001') })).resolves.toBeNull();
  });

  it('refuses a registration whose compile and loop probes outlast the deadline', async () => {
    pool = new SchemaCheckPool({ checkMs: 300, compileMs: 300 });
    // 2^30 checks of {} in the loop probes: hours.
    await expect(pool.compile(fanOut(30), null)).resolves.toEqual({
      ok: false,
      details: [{ path: 'schema', message: 'took more than 0.3 s to compile and check: too costly to check events against' }],
    });
  });

  it('refuses data whose check outlasts the deadline, and answers the next task on a new thread', async () => {
    pool = new SchemaCheckPool({ checkMs: 300, compileMs: 10_000 });
    // Cheap to compile and probe (no probe value has keys), 2^14 × 100 pattern tests for each key of the data.
    const patterns = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`^k${i}(a|b)*c$`, {}]));
    const costly = fanOut(14, { type: 'object', patternProperties: patterns });
    const data = Object.fromEntries(Array.from({ length: 2_000 }, (_, i) => [`k${i}ababab`, 0]));
    await expect(pool.check('costly', costly, data)).resolves.toEqual([
      { path: 'data', message: 'could not be checked against the schema within 0.3 s: the schema costs too much on this data' },
    ]);
    await expect(pool.check('k1', ORDER, { amount: 7 })).resolves.toBeNull();
  });

  it('gives a thread that has not met a schema the compile deadline to compile it, and the check deadline to check data', async () => {
    pool = new SchemaCheckPool({ checkMs: 300, compileMs: 300 });
    await expect(pool.check('fanned', fanOut(30), {})).resolves.toEqual([{ path: 'data', message: 'could not be checked: the schema took more than 0.3 s to compile' }]);
  });

  it('counts a deadline from when a thread takes the task, not from its wait behind others', async () => {
    pool = new SchemaCheckPool({ checkMs: 300, compileMs: 300 });
    // Both threads held for a deadline each by schemas that never finish; the quick check waits behind them, then gets a new thread.
    const held = [pool.compile(fanOut(30), null), pool.compile(fanOut(31), null)];
    const quick = pool.check('k1', ORDER, { amount: 7 });
    await expect(quick).resolves.toBeNull();
    await expect(Promise.all(held)).resolves.toMatchObject([{ ok: false }, { ok: false }]);
  });
});
