import Koa from 'koa';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import pino from 'pino';
import { DomainError, ValidationError } from '../../../src/domain/errors';
import type { Logger } from '../../../src/infra/logger';
import { htmlErrors } from '../../../src/transport/http/dashboard/html-errors';
import { errorHandler } from '../../../src/transport/http/middleware/error-handler';
import { requestId } from '../../../src/transport/http/middleware/request-id';

/** The error middleware in front of a `next` that fails in a chosen way, on a real HTTP server. */
async function serve(fail: () => never | Promise<never>, handler: (logger: Logger) => Koa.Middleware = errorHandler) {
  const lines: string[] = [];
  const logger = pino({ level: 'error' }, { write: (line: string) => void lines.push(line) });
  const app = new Koa();
  app.use(requestId());
  app.use(handler(logger));
  app.use(async () => fail());
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, lines, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('error handler', () => {
  it.each([
    ['the API error handler', errorHandler],
    ['the dashboard error pages', htmlErrors],
  ])('%s logs an invite link path without its token', async (_name, handler) => {
    const s = await serve(() => {
      throw new Error('boom');
    }, handler);
    try {
      const token = 'Zk3c9QmXv1rT8aYpL0sNwE4uJ7hB2dFgK6iO5eRtU1y';
      const res = await fetch(`${s.url}/dashboard/invite/${token}`, { method: 'POST' });
      expect(res.status).toBe(500);
      const log = s.lines.join('\n');
      expect(log).toContain('boom');
      expect(log).toContain('/dashboard/invite/:token');
      expect(log).not.toContain(token);
    } finally {
      await s.close();
    }
  });

  it('an unexpected exception is a 500 with the request id and no stack trace or message in the body', async () => {
    const s = await serve(() => {
      throw new Error('secret internal detail at /srv/app.js:12');
    });
    try {
      const res = await fetch(`${s.url}/anything`);
      const text = await res.text();
      expect(res.status).toBe(500);
      const body = JSON.parse(text);
      const requestIdHeader = res.headers.get('x-request-id');
      expect(body).toEqual({ error: expect.any(String), code: 'internal_error', request_id: requestIdHeader });
      expect(text).not.toMatch(/secret internal detail|at \/|\.js:|stack/i);
      // The details go to the log, with the same request id.
      expect(s.lines.join('\n')).toContain('secret internal detail');
      expect(s.lines.join('\n')).toContain(requestIdHeader!);
    } finally {
      await s.close();
    }
  });

  it('a rejected promise that is not an Error is a 500 too', async () => {
    const s = await serve(() => Promise.reject('a string') as never);
    try {
      const res = await fetch(`${s.url}/`);
      expect(res.status).toBe(500);
      expect(((await res.json()) as { code: string }).code).toBe('internal_error');
    } finally {
      await s.close();
    }
  });

  it('a typed domain error maps to its status with error, code, extra fields and headers', async () => {
    const s = await serve(() => {
      throw new ValidationError('Invalid request body.', [{ path: 'url', message: 'Required' }]);
    });
    try {
      const res = await fetch(`${s.url}/`);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: 'Invalid request body.', code: 'invalid_request', details: [{ path: 'url', message: 'Required' }] });
      expect(res.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{32}$/);
    } finally {
      await s.close();
    }
  });

  it('keeps a custom code', async () => {
    const s = await serve(() => {
      throw new DomainError('delivery_in_flight', 'Busy.');
    });
    try {
      const res = await fetch(`${s.url}/`);
      expect(res.status).toBe(409);
      expect(await res.json()).toEqual({ error: 'Busy.', code: 'delivery_in_flight' });
    } finally {
      await s.close();
    }
  });
  it.each([
    ['the API error handler', errorHandler, 'application/json'],
    ['the dashboard error pages', htmlErrors, 'text/html'],
  ])('%s answers a dependency that did not answer with 503 service_unavailable and Retry-After 1', async (_name, handler, type) => {
    const down = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:27017'), { unreachable: true });
    const s = await serve(
      () => {
        throw down;
      },
      (logger) => handler(logger, (err) => err === down),
    );
    try {
      const res = await fetch(`${s.url}/api/v1/webhooks/endpoints`);
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('1');
      expect(res.headers.get('content-type')).toContain(type);
      if (type === 'application/json') expect(await res.json()).toMatchObject({ code: 'service_unavailable', retry_after: 1 });
    } finally {
      await s.close();
    }
  });

  it('another error that is not a dependency down stays a 500', async () => {
    const s = await serve(
      () => {
        throw new Error('boom');
      },
      (logger) => errorHandler(logger, () => false),
    );
    try {
      expect((await fetch(`${s.url}/x`)).status).toBe(500);
    } finally {
      await s.close();
    }
  });
});
