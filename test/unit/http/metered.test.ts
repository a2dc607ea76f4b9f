import Koa from 'koa';
import type { Context } from 'koa';
import { burstLimitExceeded, DomainError } from '../../../src/domain/errors';
import { Admission, LimitAdmitter, LimitRejection, LimitState } from '../../../src/domain/limits/admission';
import { metered } from '../../../src/transport/http/middleware/metered';

/** A limiter that admits every call and records which were given back. */
function fakeLimiter(state: Partial<LimitState> = {}) {
  const full: LimitState = {
    burstLimit: 10,
    burstRemaining: 9,
    burstResetAt: new Date('2031-05-10T12:01:00.000Z'),
    quotaUsed: 1,
    quotaLimit: 500,
    ...state,
  };
  const released: number[] = [];
  let admitted = 0;
  const limiter = {
    admitNow: async (): Promise<Admission> => {
      const n = ++admitted;
      return { state: full, release: async () => void released.push(n) };
    },
  } as unknown as LimitAdmitter;
  return { limiter, released, admittedCount: () => admitted };
}

function fakeContext(): Context {
  const app = new Koa();
  const req = { headers: {}, socket: {} } as never;
  const res = { getHeader: () => undefined, setHeader: () => undefined, removeHeader: () => undefined, headersSent: false } as never;
  const ctx = app.createContext(req, res);
  const headers: Record<string, string> = {};
  ctx.set = ((fields: Record<string, string>) => void Object.assign(headers, fields)) as Context['set'];
  (ctx as unknown as { headersSet: Record<string, string> }).headersSet = headers;
  return ctx;
}
const headersOf = (ctx: Context) => (ctx as unknown as { headersSet: Record<string, string> }).headersSet;
const policy = { bucket: 'acct:x', burstLimit: 10, quotaLimit: 500, countUsage: true };

describe('metered(): one metered call', () => {
  it('sets every limit header from the admission', async () => {
    const { limiter } = fakeLimiter();
    const ctx = fakeContext();
    await metered(ctx, limiter, policy, async () => undefined);
    expect(headersOf(ctx)).toEqual({
      'X-RateLimit-Limit': '10',
      'X-RateLimit-Remaining': '9',
      'X-RateLimit-Reset': String(Date.parse('2031-05-10T12:01:00.000Z') / 1000),
      'X-Quota-Used': '1',
      'X-Quota-Limit': '500',
    });
  });

  it('says `unlimited` for a quota of Infinity', async () => {
    const { limiter } = fakeLimiter({ quotaLimit: Number.POSITIVE_INFINITY });
    const ctx = fakeContext();
    await metered(ctx, limiter, policy, async () => undefined);
    expect(headersOf(ctx)['X-Quota-Limit']).toBe('unlimited');
  });

  it('keeps a 2xx and a 4xx counted', async () => {
    const { limiter, released } = fakeLimiter();
    const ok = fakeContext();
    await metered(ok, limiter, policy, async () => void (ok.status = 201));
    const notFound = fakeContext();
    await expect(metered(notFound, limiter, policy, async () => Promise.reject(new DomainError('not_found', 'nope')))).rejects.toMatchObject({ code: 'not_found' });
    expect(released).toEqual([]);
  });

  it('gives the call back when the handler throws an unexpected error (a 500)', async () => {
    const { limiter, released } = fakeLimiter();
    const ctx = fakeContext();
    await expect(metered(ctx, limiter, policy, async () => Promise.reject(new TypeError('boom')))).rejects.toThrow('boom');
    expect(released).toEqual([1]);
  });

  it('gives the call back when the handler throws a 5xx domain error', async () => {
    const { limiter, released } = fakeLimiter();
    const ctx = fakeContext();
    await expect(metered(ctx, limiter, policy, async () => Promise.reject(new DomainError('service_unavailable', 'down')))).rejects.toThrow('down');
    expect(released).toEqual([1]);
  });

  it('gives the call back when the handler answers a 5xx status itself', async () => {
    const { limiter, released } = fakeLimiter();
    const ctx = fakeContext();
    await metered(ctx, limiter, policy, async () => void (ctx.status = 503));
    expect(released).toEqual([1]);
  });

  it('a rejection becomes the 429 error with the rejection state in the headers, and the handler never runs', async () => {
    const state: LimitState = { burstLimit: 10, burstRemaining: 0, burstResetAt: new Date('2031-05-10T12:01:00.000Z'), quotaUsed: 10, quotaLimit: 500 };
    const limiter = { admitNow: async () => Promise.reject(new LimitRejection(burstLimitExceeded(42), state)) } as unknown as LimitAdmitter;
    const ctx = fakeContext();
    const handler = jest.fn(async () => undefined);
    const err = await metered(ctx, limiter, policy, handler).catch((e) => e);
    expect(err).toMatchObject({ code: 'rate_limit_exceeded' });
    expect(err.data).toEqual({ retry_after: 42, remaining: 0 });
    expect(handler).not.toHaveBeenCalled();
    expect(headersOf(ctx)).toMatchObject({ 'X-RateLimit-Remaining': '0', 'X-Quota-Used': '10' });
  });
});
