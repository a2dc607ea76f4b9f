import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { burstLimitExceeded } from '../../../src/domain/errors';
import { type Admission, type LimitAdmitter, LimitRejection, type LimitState } from '../../../src/domain/limits/admission';
import { metricsRegistry } from '../../../src/infra/metrics';
import type { EventService, IngestInput, IngestResult } from '../../../src/services/event-service';
import { IngestAdmission, type IngestTicket } from '../../../src/services/ingest-admission';
import type { Product } from '../../../src/domain/keys/products';
import type { KeyAuthenticator, Principal } from '../../../src/services/key-authenticator';
import { createServer } from 'node:http';
import { createApp } from '../../../src/transport/http/app';
import { keyScoped } from '../../../src/transport/http/middleware/key-scoped';
import { eventRoutes } from '../../../src/transport/http/routes/webhooks/events';
import { ingestAdmission, ingestShed } from '../../../src/transport/http/routes/webhooks/ingest-gate';

/**
 * An ingest is decided once, before it is metered or its body read: a refusal is counted once (its
 * reason, and its outcome), and an admitted call's place is released exactly once, when the call is
 * answered, however it ends.
 */
const STATE: LimitState = { burstLimit: 100, burstRemaining: 40, burstResetAt: new Date('2031-05-10T12:01:00.000Z'), quotaUsed: 60, quotaLimit: 50_000 };
const principalOf = (product: Product) => ({ account: { _id: 'acct_1', tier: 'starter' }, key: { product } }) as unknown as Principal;

interface Setting {
  /** Whether this process knows the account's limits before metering (else the call is decided after). */
  limitsKnown?: boolean;
  /** Whether metering refuses the call (429). */
  limited?: boolean;
  /** Whether admission refuses the account (its starts wait past MAX_BACKLOG_S). */
  late?: boolean;
  /** Whether the server decides the call before Koa when it can (ingest-gate.ts, ingestShed). */
  early?: boolean;
  /** With `early`: whether the key is in the cache (else the call is left to Koa). */
  keyCached?: boolean;
  /** The product of the call's key (default `weh`, the webhooks product). */
  product?: Product;
  /** What the service does with an admitted ingest. */
  ingest?: (ticket: IngestTicket, input: IngestInput) => Promise<IngestResult>;
}

/** The API's ingest route behind the key-scoped guard, with a real admission whose decisions and tickets are recorded. */
async function ingestOnce(setting: Setting, body: unknown = { type: 'order.created', data: {} }, path = '/api/v1/webhooks/events') {
  const admission = new IngestAdmission(
    {
      backlog: 0,
      accountWaitMs: () => (setting.late ? 60_000 : 0),
      accountExpectedWaitMs: () => 0,
      atOrAboveShare: () => false,
      holdsShareOfBacklog: () => false,
    },
    { sustainedP99Ms: () => 0 },
    { backlogLimit: 100, maxBacklogMs: 2_000, maxLoopDelayMs: 250 },
  );
  const decisions: { ticket?: IngestTicket; release?: jest.SpyInstance }[] = [];
  const recordingAdmission = {
    admit: (accountId: string) => {
      const decision: (typeof decisions)[number] = {};
      decisions.push(decision);
      const ticket = admission.admit(accountId);
      Object.assign(decision, { ticket, release: jest.spyOn(ticket, 'release') });
      return ticket;
    },
  };
  const metering = { admitted: 0, givenBack: 0 };
  const limiter: LimitAdmitter = {
    admit: async (): Promise<Admission> => {
      if (setting.limited) throw new LimitRejection(burstLimitExceeded(5), { ...STATE, burstRemaining: 0 });
      metering.admitted++;
      return { state: STATE, release: async () => void metering.givenBack++ };
    },
    admitNow: (policy) => limiter.admit(policy),
    usage: async () => 0,
    peek: () => (setting.limitsKnown === false ? null : STATE),
  };
  const ingested: { ticket: IngestTicket; releasedYet: number }[] = [];
  const service = {
    ingest: async (ticket: IngestTicket, input: IngestInput) => {
      ingested.push({ ticket, releasedYet: decisions[0]?.release?.mock.calls.length ?? 0 });
      return setting.ingest ? setting.ingest(ticket, input) : { created: true, body: { id: 1 } };
    },
  } as unknown as EventService;
  const principal = principalOf(setting.product ?? 'weh');
  const authenticator = { principalOf: () => principal } as unknown as KeyAuthenticator;
  const app = createApp({
    logger: pino({ level: 'silent' }),
    routes: eventRoutes(service),
    guards: [keyScoped(authenticator, limiter, ingestAdmission(recordingAdmission))],
  });
  const koa = app.callback();
  let koaCalls = 0;
  const shed = ingestShed({
    authenticator: { cachedPrincipal: () => (setting.keyCached === false ? undefined : principal) },
    limiter,
    admission: recordingAdmission,
  });
  const server = await new Promise<Server>((resolve) => {
    const s = createServer((req, res) => (setting.early && shed(req, res)) || void (koaCalls++, koa(req, res))).listen(0, '127.0.0.1', () => resolve(s));
  });
  try {
    const { port } = server.address() as AddressInfo;
    const res = await fetch(`http://127.0.0.1:${port}${path}`, {
      method: 'POST',
      headers: { Authorization: 'Bearer x', 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, headers: Object.fromEntries(res.headers), text, decisions, ingested, metering, koaCalls };
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

async function counts(name: string, label: string): Promise<Record<string, number>> {
  const metric = await metricsRegistry.getSingleMetric(name)!.get();
  return Object.fromEntries(metric.values.map((v) => [String(v.labels[label]), v.value]));
}

/** What `act` added to the shed reasons and the ingest outcomes, series that did not move left out. */
async function countedBy(act: () => Promise<unknown>): Promise<{ shed: Record<string, number>; outcomes: Record<string, number> }> {
  const series = [
    ['webhook_ingest_shed_total', 'reason'],
    ['webhook_ingests_total', 'outcome'],
  ] as const;
  const before = await Promise.all(series.map(([name, label]) => counts(name, label)));
  await act();
  const after = await Promise.all(series.map(([name, label]) => counts(name, label)));
  const moved = (i: number) =>
    Object.fromEntries(Object.keys(after[i]).flatMap((k): Array<[string, number]> => (after[i][k] === before[i][k] ? [] : [[k, after[i][k] - before[i][k]]])));
  return { shed: moved(0), outcomes: moved(1) };
}

describe.each([
  ['through Koa', false],
  ['before Koa when its key is cached', true],
])('an ingest is decided once, %s', (_, early) => {
  const decide = (setting: Setting, body?: unknown, path?: string) => ingestOnce({ ...setting, early }, body, path);

  it('counts a refusal once, by its reason and as one overloaded outcome, before the call is metered', async () => {
    let res: Awaited<ReturnType<typeof ingestOnce>> | undefined;
    const counted = await countedBy(async () => (res = await decide({ late: true })));
    expect(res?.status).toBe(503);
    expect(counted).toEqual({ shed: { backlog_age: 1 }, outcomes: { rejected_overloaded: 1 } });
    expect(res?.decisions).toHaveLength(1);
    expect(res?.metering.admitted).toBe(0);
    expect(res?.ingested).toEqual([]);
  });

  it('counts a refusal once when the limits are unknown here and it is decided after metering, its call given back', async () => {
    let res: Awaited<ReturnType<typeof ingestOnce>> | undefined;
    const counted = await countedBy(async () => (res = await decide({ late: true, limitsKnown: false })));
    expect(res?.status).toBe(503);
    expect(counted).toEqual({ shed: { backlog_age: 1 }, outcomes: { rejected_overloaded: 1 } });
    expect(res?.decisions).toHaveLength(1);
    expect(res?.metering).toEqual({ admitted: 1, givenBack: 1 });
  });

  it('hands the admitted place to the service, which does not decide again, and releases it once the call is answered', async () => {
    let res: Awaited<ReturnType<typeof ingestOnce>> | undefined;
    const counted = await countedBy(async () => (res = await decide({})));
    expect(res?.status).toBe(202);
    expect(counted).toEqual({ shed: {}, outcomes: { accepted: 1 } });
    expect(res?.decisions).toHaveLength(1);
    expect(res?.ingested).toEqual([{ ticket: res?.decisions[0].ticket, releasedYet: 0 }]);
    expect(res?.decisions[0].release).toHaveBeenCalledTimes(1);
  });

  it("releases an admitted call's place once when its body is refused 400", async () => {
    const res = await decide({}, { type: 42 });
    expect(res.status).toBe(400);
    expect(res.decisions).toHaveLength(1);
    expect(res.decisions[0].release).toHaveBeenCalledTimes(1);
    expect(res.ingested).toEqual([]);
  });

  it("releases an admitted call's place once when its limits refuse it 429", async () => {
    const res = await decide({ limited: true });
    expect(res.status).toBe(429);
    expect(res.decisions).toHaveLength(1);
    expect(res.decisions[0].release).toHaveBeenCalledTimes(1);
  });

  it("releases an admitted call's place once when the service fails", async () => {
    const res = await decide({ ingest: async () => Promise.reject(new Error('the store failed')) });
    expect(res.status).toBe(500);
    expect(res.decisions[0].release).toHaveBeenCalledTimes(1);
  });

  it('decides an ingest sent to the path with a trailing slash the same way', async () => {
    const res = await decide({}, undefined, '/api/v1/webhooks/events/');
    expect(res.status).toBe(202);
    expect(res.decisions).toHaveLength(1);
    expect(res.ingested[0].ticket).toBe(res.decisions[0].ticket);
  });
});

describe('an ingest decided before Koa', () => {
  it('is refused with the same status, headers and body as through Koa', async () => {
    const [before, through] = [await ingestOnce({ late: true, early: true }), await ingestOnce({ late: true })];
    const comparable = (headers: Record<string, string>) => {
      const { date: _date, 'x-request-id': id, ...rest } = headers;
      expect(id).toMatch(/^req_[0-9a-f]{32}$/);
      return rest;
    };
    expect(before.status).toBe(503);
    expect(before.koaCalls).toBe(0);
    expect(comparable(before.headers)).toEqual(comparable(through.headers));
    expect(JSON.parse(before.text)).toEqual(JSON.parse(through.text));
  });

  it('is left to Koa, and decided there once, when its key is not cached', async () => {
    let res: Awaited<ReturnType<typeof ingestOnce>> | undefined;
    const counted = await countedBy(async () => (res = await ingestOnce({ late: true, early: true, keyCached: false })));
    expect(res?.status).toBe(503);
    expect(counted).toEqual({ shed: { backlog_age: 1 }, outcomes: { rejected_overloaded: 1 } });
    expect(res?.decisions).toHaveLength(1);
    expect(res?.koaCalls).toBe(1);
  });

  it('is left to Koa, which refuses it 403 and admits nothing, when its key is of another product', async () => {
    const res = await ingestOnce({ late: true, early: true, product: 'sec' });
    expect(res.status).toBe(403);
    expect(JSON.parse(res.text).code).toBe('wrong_product');
    expect(res.decisions).toHaveLength(0);
    expect(res.koaCalls).toBe(1);
  });
});
