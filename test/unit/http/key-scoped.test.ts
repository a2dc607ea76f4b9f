import Koa from 'koa';
import { overloaded } from '../../../src/domain/errors';
import type { Admission, LimitAdmitter, LimitState } from '../../../src/domain/limits/admission';
import type { KeyAuthenticator, Principal } from '../../../src/services/key-authenticator';
import { errorHandler } from '../../../src/transport/http/middleware/error-handler';
import { keyScoped } from '../../../src/transport/http/middleware/key-scoped';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';

const STATE: LimitState = { burstLimit: 100, burstRemaining: 40, burstResetAt: new Date('2031-05-10T12:01:00.000Z'), quotaUsed: 60, quotaLimit: 50_000 };

/** A limiter that records what it was asked; `known` is what peek answers. */
function recordingLimiter(known: LimitState | null) {
  const calls = { admitted: 0, released: 0, peeked: 0 };
  const limiter: LimitAdmitter = {
    admit: async (): Promise<Admission> => {
      calls.admitted++;
      return { state: { ...STATE, burstRemaining: STATE.burstRemaining - 1, quotaUsed: STATE.quotaUsed + 1 }, release: async () => void calls.released++ };
    },
    admitNow: (policy) => limiter.admit(policy),
    usage: async () => 0,
    peek: () => {
      calls.peeked++;
      return known;
    },
  };
  return { limiter, calls };
}

const principal = { account: { _id: 'acct_1', tier: 'starter' }, key: { product: 'weh' } } as unknown as Principal;
const authenticator = { principalOf: () => principal } as unknown as KeyAuthenticator;
type AdmitEarly = Parameters<typeof keyScoped>[2];
const refuseAll: AdmitEarly = () => () => {
  throw overloaded(3);
};

async function call(limiter: LimitAdmitter, admitEarly: AdmitEarly, path = '/api/v1/webhooks/events') {
  let handled = 0;
  const app = new Koa();
  app.use(errorHandler({ error: () => undefined } as never));
  app.use(keyScoped(authenticator, limiter, admitEarly));
  app.use(async (ctx) => {
    handled++;
    ctx.body = { ok: true };
  });
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  try {
    const { port } = server.address() as AddressInfo;
    const res = await fetch(`http://127.0.0.1:${port}${path}`, { method: 'POST', headers: { Authorization: 'Bearer x' }, body: '{}' });
    return { status: res.status, headers: res.headers, body: (await res.json()) as { error?: string; code?: string }, handled };
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

describe('keyScoped: a call decided before it is metered', () => {
  it('is answered 503 with Retry-After and the limit headers as they stand, and is neither metered nor handled', async () => {
    const { limiter, calls } = recordingLimiter(STATE);
    const res = await call(limiter, refuseAll);
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ code: 'overloaded', retry_after: 3 });
    expect(res.headers.get('retry-after')).toBe('3');
    expect(res.headers.get('x-ratelimit-remaining')).toBe('40');
    expect(res.headers.get('x-quota-used')).toBe('60');
    expect(calls).toEqual({ admitted: 0, released: 0, peeked: 1 });
    expect(res.handled).toBe(0);
  });

  it('is metered first when this process does not know its limits yet, then refused before it is handled, its call given back', async () => {
    const { limiter, calls } = recordingLimiter(null);
    const res = await call(limiter, refuseAll);
    expect(res.status).toBe(503);
    expect(calls).toEqual({ admitted: 1, released: 1, peeked: 1 });
    expect(res.handled).toBe(0);
  });

  it('whose burst is used up is left to the limiter: 429 comes before 503', async () => {
    const { limiter, calls } = recordingLimiter({ ...STATE, burstRemaining: 0 });
    await call(limiter, refuseAll);
    expect(calls.admitted).toBe(1);
  });

  it('whose quota is used up is left to the limiter too', async () => {
    const { limiter, calls } = recordingLimiter({ ...STATE, quotaUsed: STATE.quotaLimit });
    await call(limiter, refuseAll);
    expect(calls.admitted).toBe(1);
  });

  it('with a key of another product is answered 403 naming the product, counted, not shed', async () => {
    const { limiter, calls } = recordingLimiter(STATE);
    const res = await call(limiter, refuseAll, '/api/v1/secrets/anything');
    expect(res.status).toBe(403);
    expect(res.body.error).toContain('Secrets Leak Detection');
    expect(calls.admitted).toBe(1);
  });

  it('is metered and handled when admitted', async () => {
    const { limiter, calls } = recordingLimiter(STATE);
    const res = await call(limiter, () => () => () => undefined);
    expect(res.status).toBe(200);
    expect(res.handled).toBe(1);
    expect(calls.admitted).toBe(1);
  });

  it('is admitted once and its place released once it is answered, whether decided before metering or after', async () => {
    for (const known of [STATE, null]) {
      const admitted: string[] = [];
      const admitEarly: AdmitEarly = () => () => {
        admitted.push('taken');
        return () => admitted.push('released');
      };
      const res = await call(recordingLimiter(known).limiter, admitEarly);
      expect(res.status).toBe(200);
      expect(admitted).toEqual(['taken', 'released']);
    }
  });

  it('costs a call that has no admission (any call but an ingest) no look at its limits', async () => {
    const { limiter, calls } = recordingLimiter(STATE);
    const res = await call(limiter, () => undefined);
    expect(res.status).toBe(200);
    expect([calls.peeked, calls.admitted]).toEqual([0, 1]);
  });
});
