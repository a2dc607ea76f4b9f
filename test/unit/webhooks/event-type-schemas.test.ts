import { lifetimeOf } from '../../../src/persistence/cache-invalidation-follower';
import type { EventTypes, EventTypeSchemaDoc } from '../../../src/persistence/event-types';
import { EVENT_TYPES_CACHE_TTL_MS, EventTypeSchemas } from '../../../src/services/event-type-schemas';
import { compileDataSchema } from '../../../src/domain/webhooks/event-type-schema';
import type { ErrorDetail } from '../../../src/domain/errors';
import runSchemaTask from '../../../src/infra/schema-check-thread';

// Counted, not replaced: the real compiler runs, on this thread (the pool's threads run the same task function).
jest.mock('../../../src/domain/webhooks/event-type-schema', () => {
  const actual = jest.requireActual('../../../src/domain/webhooks/event-type-schema');
  return { ...actual, compileDataSchema: jest.fn(actual.compileDataSchema) };
});
const compile = compileDataSchema as jest.MockedFunction<typeof compileDataSchema>;

function setup(options: { followed: boolean }) {
  let now = 1_000_000;
  let covered: number | null = null;
  const reads: string[] = [];
  const catalogs = new Map<string, EventTypeSchemaDoc[]>();
  const eventTypes: Pick<EventTypes, 'withSchemas'> = {
    withSchemas: async (accountId) => {
      reads.push(accountId);
      return catalogs.get(accountId) ?? [];
    },
  };
  const schemaChecks = {
    check: async (key: string, schema: Record<string, unknown>, data: unknown) => {
      return runSchemaTask({ op: 'check', key, schema, data, phase: new BigInt64Array(1) }) as ErrorDetail[] | null;
    },
  };
  const cache = new EventTypeSchemas({ eventTypes, schemaChecks, now: () => now, lifetime: lifetimeOf({ coveredSince: () => (options.followed ? covered : null) }) });
  return {
    cache,
    reads,
    catalogs,
    advance: (ms: number) => (now += ms),
    poll: () => (covered = now),
  };
}

const requires = (property: string, version: number): EventTypeSchemaDoc => ({ name: 'order.paid', version, schema: { type: 'object', required: [property] } });

describe('EventTypeSchemas', () => {
  beforeEach(() => compile.mockClear());

  it('refuses data that does not match with schema_mismatch and its paths; a type without a schema passes', async () => {
    const { cache, catalogs } = setup({ followed: false });
    catalogs.set('acct_1', [requires('order_id', 1)]);
    await expect(cache.check('acct_1', 'order.paid', {})).rejects.toMatchObject({ code: 'schema_mismatch', data: { details: [{ path: 'data.order_id' }] } });
    await expect(cache.check('acct_1', 'order.paid', { order_id: 1 })).resolves.toBeUndefined();
    await expect(cache.check('acct_1', 'order.created', {})).resolves.toBeUndefined();
    await expect(cache.check('acct_2', 'order.paid', {})).resolves.toBeUndefined();
  });

  it('reads an account’s catalog once per TTL when the log is not followed, and keeps it while the log is followed', async () => {
    const unfollowed = setup({ followed: false });
    await unfollowed.cache.check('acct_1', 'order.paid', {});
    unfollowed.advance(EVENT_TYPES_CACHE_TTL_MS - 1);
    await unfollowed.cache.check('acct_1', 'order.paid', {});
    expect(unfollowed.reads).toEqual(['acct_1']);
    unfollowed.advance(1);
    await unfollowed.cache.check('acct_1', 'order.paid', {});
    expect(unfollowed.reads).toEqual(['acct_1', 'acct_1']);

    const followed = setup({ followed: true });
    followed.poll();
    for (let t = 0; t < 10_000; t += 200) {
      followed.advance(200);
      followed.poll();
      await followed.cache.check('acct_1', 'order.paid', {});
    }
    expect(followed.reads).toEqual(['acct_1']);
  });

  it('drops an account’s catalog when the log names it, and has each schema compiled once per version', async () => {
    const { cache, catalogs, reads, poll } = setup({ followed: true });
    poll();
    catalogs.set('acct_1', [requires('a', 1)]);
    for (let i = 0; i < 5; i++) await expect(cache.check('acct_1', 'order.paid', { a: 1 })).resolves.toBeUndefined();
    expect(compile).toHaveBeenCalledTimes(1);

    catalogs.set('acct_1', [requires('b', 2)]);
    cache.apply({ kind: 'endpoints_changed', account_id: 'acct_1' });
    await expect(cache.check('acct_1', 'order.paid', { a: 1 })).resolves.toBeUndefined(); // another kind: the copy stays
    cache.apply({ kind: 'event_types_changed', account_id: 'acct_1' });
    for (let i = 0; i < 5; i++) await expect(cache.check('acct_1', 'order.paid', { a: 1 })).rejects.toMatchObject({ code: 'schema_mismatch' });
    expect(compile).toHaveBeenCalledTimes(2);
    expect(reads).toEqual(['acct_1', 'acct_1']);
  });

  it('checks a type deleted and created again against its new schema, though its version starts again at 1', async () => {
    const { cache, catalogs, poll } = setup({ followed: true });
    poll();
    catalogs.set('acct_4', [requires('a', 1)]);
    await expect(cache.check('acct_4', 'order.paid', { a: 1 })).resolves.toBeUndefined();
    catalogs.set('acct_4', [{ name: 'order.paid', version: 1, schema: { type: 'object', required: ['b'], additionalProperties: false, properties: { b: {} } } }]);
    cache.apply({ kind: 'event_types_changed', account_id: 'acct_4' });
    await expect(cache.check('acct_4', 'order.paid', { b: 1 })).resolves.toBeUndefined();
    await expect(cache.check('acct_4', 'order.paid', { a: 1 })).rejects.toMatchObject({ code: 'schema_mismatch' });
    expect(compile).toHaveBeenCalledTimes(2);
  });
});
