import type { Platform } from '../../src/main/platform';
import { apiClient, createAccountWithKey, eventually, startTestPlatform } from '../support/platform';
import { startReceiver } from '../support/receiver';

/**
 * `GET /metrics` is reachable only where the operator asks for it (METRICS_PORT,
 * optionally METRICS_TOKEN), and its counters move with the calls they count.
 */
const TOKEN = 'metrics-token-for-tests-0123456789';

function sample(text: string, name: string, labels: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{${labels}} `));
  if (!line) throw new Error(`no sample ${name}{${labels}}`);
  return Number(line.split(' ').pop());
}

describe('metrics', () => {
  describe('not enabled (the default)', () => {
    let platform: Platform;
    beforeAll(async () => {
      platform = await startTestPlatform({ roles: { api: true, worker: false } });
    });
    afterAll(async () => {
      await platform?.stop();
    });

    it('starts no metrics listener, and the API port has no /metrics', async () => {
      expect(platform.metricsUrl).toBeUndefined();
      const res = await fetch(`${platform.apiUrl}/metrics`);
      expect(res.status).toBe(404);
      expect(await res.text()).not.toContain('ratelimit_rejections_total');
    });
  });

  describe('METRICS_PORT and METRICS_TOKEN set', () => {
    let platform: Platform;
    beforeAll(async () => {
      platform = await startTestPlatform({ roles: { api: true, worker: false }, env: { METRICS_PORT: '0', METRICS_TOKEN: TOKEN } });
    });
    afterAll(async () => {
      await platform?.stop();
    });

    const scrape = async () => {
      const res = await fetch(platform.metricsUrl!, { headers: { Authorization: `Bearer ${TOKEN}` } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      return res.text();
    };

    it('serves GET /metrics on its own listener only with the token', async () => {
      expect(platform.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
      expect(new URL(platform.metricsUrl!).port).not.toBe(new URL(platform.apiUrl!).port);
      expect((await fetch(platform.metricsUrl!)).status).toBe(401);
      expect((await fetch(platform.metricsUrl!, { headers: { Authorization: 'Bearer wrong' } })).status).toBe(401);
      expect((await fetch(platform.metricsUrl!.replace('/metrics', '/other'), { headers: { Authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
      expect((await fetch(`${platform.apiUrl}/metrics`)).status).toBe(404);
      const text = await scrape();
      for (const name of [
        'webhook_ingests_total',
        'webhook_deliveries_total',
        'webhook_attempts_total',
        'webhook_attempt_duration_seconds',
        'webhook_ingest_to_first_attempt_seconds',
        'webhook_dispatch_backlog',
        'ratelimit_rejections_total',
        'process_cpu_seconds_total',
      ]) {
        expect(text).toContain(`# TYPE ${name} `);
      }
    });

    it('counts burst and anonymous 429s as they happen', async () => {
      const before = await scrape();
      const { key } = await createAccountWithKey(platform, { tier: 'free' });
      const api = apiClient(platform, key);
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) statuses.push((await api.get('/api/v1/webhooks/endpoints')).status);
      expect(statuses.filter((s) => s === 429)).toHaveLength(2);
      const anonymous = apiClient(platform);
      const forwarded = { 'X-Forwarded-For': '203.0.113.7' };
      const estimator: number[] = [];
      for (let i = 0; i < 31; i++) estimator.push((await anonymous.get('/api/cost-estimator?provider=aws', forwarded)).status);
      expect(estimator.filter((s) => s === 429)).toHaveLength(1);
      const after = await scrape();
      expect(sample(after, 'ratelimit_rejections_total', 'kind="burst"') - sample(before, 'ratelimit_rejections_total', 'kind="burst"')).toBe(2);
      expect(sample(after, 'ratelimit_rejections_total', 'kind="anonymous"') - sample(before, 'ratelimit_rejections_total', 'kind="anonymous"')).toBe(1);
    });
  });

  describe('the delivery path moves its counters', () => {
    let platform: Platform;
    let receiver: Awaited<ReturnType<typeof startReceiver>>;
    beforeAll(async () => {
      platform = await startTestPlatform({ env: { METRICS_PORT: '0' } });
      receiver = await startReceiver((_req, i) => (i === 0 ? { status: 503 } : { status: 200 }));
    });
    afterAll(async () => {
      await receiver?.close();
      await platform?.stop();
    });

    it('counts ingests by outcome, attempts by status class, deliveries by final status, and observes attempt and first-attempt latency', async () => {
      const scrape = async () => (await fetch(platform.metricsUrl!)).text();
      const before = await scrape();
      const api = apiClient(platform, (await createAccountWithKey(platform)).key);
      await api.post('/api/v1/webhooks/endpoints', { url: `${receiver.url}/metrics` });
      const res = await api.post('/api/v1/webhooks/events', { type: 'm.one', data: {}, idempotency_key: 'metrics-1' });
      expect((await api.post('/api/v1/webhooks/events', { type: 'm.one', data: {}, idempotency_key: 'metrics-1' })).status).toBe(200);
      expect((await api.post('/api/v1/webhooks/events', { type: '', data: {} })).status).toBe(400);
      await eventually(async () => (await api.get(`/api/v1/webhooks/events/${res.body.id}`)).body.status === 'delivered' || undefined);
      const after = await scrape();
      const delta = (name: string, labels: string) => sample(after, name, labels) - sample(before, name, labels);
      expect(delta('webhook_ingests_total', 'outcome="accepted"')).toBe(1);
      expect(delta('webhook_ingests_total', 'outcome="repeat"')).toBe(1);
      expect(delta('webhook_ingests_total', 'outcome="rejected_invalid"')).toBe(1);
      expect(delta('webhook_attempts_total', 'status_class="5xx"')).toBe(1);
      expect(delta('webhook_attempts_total', 'status_class="2xx"')).toBe(1);
      expect(delta('webhook_deliveries_total', 'status="succeeded"')).toBe(1);
      const count = (text: string, name: string) => Number(text.split('\n').find((l) => l.startsWith(`${name}_count `))?.split(' ').pop() ?? 0);
      expect(count(after, 'webhook_attempt_duration_seconds') - count(before, 'webhook_attempt_duration_seconds')).toBe(2);
      expect(count(after, 'webhook_ingest_to_first_attempt_seconds') - count(before, 'webhook_ingest_to_first_attempt_seconds')).toBe(1);
      expect(after).toMatch(/^webhook_dispatch_backlog \d+$/m);
    });
  });
});
