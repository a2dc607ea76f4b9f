import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { json } from '../responses';
import { defineRoute } from '../route';

export type HealthChecks = Record<'mongo' | 'temporal', () => Promise<void>>;

const State = z.enum(['ok', 'unavailable']).meta({ id: 'HealthState' });
const HealthBody = z.object({ status: State, checks: z.record(z.string(), State).optional() }).meta({ id: 'Health' });

/** Liveness: the process answers. Outside the key-scoped API, never rate limited. */
export const healthz = defineRoute({
  method: 'get',
  path: '/healthz',
  summary: 'Liveness probe',
  tags: ['Operations'],
  responses: { 200: json('The process is alive.', HealthBody) },
  handler: (ctx) => {
    ctx.body = { status: 'ok' };
  },
});

/** Readiness: MongoDB and Temporal both answer; 503 names the one that does not. */
export function readyz(checks: HealthChecks) {
  return defineRoute({
    method: 'get',
    path: '/readyz',
    summary: 'Readiness probe (MongoDB and Temporal reachable)',
    tags: ['Operations'],
    responses: { 200: json('Every dependency answers.', HealthBody), 503: json('A dependency does not answer; `checks` says which.', HealthBody) },
    handler: async (ctx) => {
      const results = await Promise.all(
        Object.entries(checks).map(async ([name, check]) => {
          try {
            await Promise.race([check(), sleep(2_000, undefined, { ref: false }).then(() => Promise.reject(new Error('timeout')))]);
            return [name, 'ok'] as const;
          } catch {
            return [name, 'unavailable'] as const;
          }
        }),
      );
      const ready = results.every(([, state]) => state === 'ok');
      ctx.status = ready ? 200 : 503;
      ctx.body = { status: ready ? 'ok' : 'unavailable', checks: Object.fromEntries(results) };
    },
  });
}
