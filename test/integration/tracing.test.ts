import type { Platform } from '../../src/main/platform';
import { DashboardInvites } from '../../src/persistence/dashboard-invites';
import { DashboardSessions } from '../../src/persistence/dashboard-sessions';
import { DashboardInviteService } from '../../src/services/dashboard-invite-service';
import { ChildRole, roleEnv, spawnRole } from '../support/child-role';
import { csrfTokenIn, DashboardClient, GOOD_PASSWORD } from '../support/dashboard-client';
import { type ExportedSpan, startOtlpSink } from '../support/otlp-sink';
import { apiClient, createAccountWithKey, eventually, startTestPlatform } from '../support/platform';
import { startReceiver } from '../support/receiver';
import { sendEventAccepted } from '../support/send-event';

/**
 * Tracing on the real stack: `npm start`'s entry in its own process (so the Koa, HTTP and MongoDB
 * instrumentations load as they do in production, before the modules they patch), exporting OTLP
 * to a sink here, against the run's Temporal and store and an HTTPS receiver that fails the first
 * attempt. One event must make one trace: its ingest the root, every delivery span beneath it.
 */
describe('tracing of one event', () => {
  let store: Platform;
  let role: ChildRole;
  let sink: Awaited<ReturnType<typeof startOtlpSink>>;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let spans: ExportedSpan[];
  let trace: ExportedSpan[];
  let root: ExportedSpan;
  let secrets: { key: string; signingSecret: string; marker: string; signatures: string[] };
  let eventId: number;
  let apiUrl: string;
  let apiKey: string;

  beforeAll(async () => {
    // This process only opens the store (accounts); the traced process has both roles.
    store = await startTestPlatform({ roles: { api: false, worker: false } });
    sink = await startOtlpSink();
    receiver = await startReceiver((_req, i) => (i === 0 ? { status: 500 } : { status: 200 }));
    role = spawnRole('start', {
      ...roleEnv(store),
      OTEL_EXPORTER_OTLP_ENDPOINT: sink.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_SERVICE_NAME: 'platform-under-test',
    });
    apiUrl = (await role.waitFor(/API\s+(http:\/\/127\.0\.0\.1:\d+)/))[1] as string;
    await role.waitFor(/Platform ready/);

    const { key } = await createAccountWithKey(store);
    apiKey = key;
    const api = apiClient({ apiUrl } as Platform, key);
    const endpoint = (await api.post('/api/v1/webhooks/endpoints', { url: `${receiver.url}/traced` })).body;
    const marker = `body-marker-${Date.now()}`;
    eventId = (await sendEventAccepted(api, { type: 'order.traced', data: { note: marker } })).body.id;
    await eventually(async () => (await api.get(`/api/v1/webhooks/events/${eventId}`)).body.deliveries[0]?.status === 'succeeded', 60_000);
    secrets = {
      key,
      signingSecret: endpoint.secret,
      marker,
      signatures: receiver.received.flatMap((r) => [r.headers['x-webhook-signature'], r.headers['webhook-signature']]).filter((v): v is string => typeof v === 'string'),
    };

    // The workflow's own spans leave when it ends; the exporter sends in batches (every 5 s).
    spans = await eventually(async () => {
      const rootSpan = sink.spans.find((s) => s.attributes['webhook.event.id'] === eventId && s.parentSpanId === undefined);
      const all = rootSpan ? sink.spans.filter((s) => s.traceId === rootSpan.traceId) : [];
      const done = all.some((s) => s.name.startsWith('RunWorkflow:')) && all.filter((s) => s.name === 'webhook.attempt.outcome').length === 2;
      return done ? [...sink.spans] : undefined;
    }, 60_000);
    root = spans.find((s) => s.attributes['webhook.event.id'] === eventId && s.parentSpanId === undefined) as ExportedSpan;
    trace = spans.filter((s) => s.traceId === root.traceId);
  }, 180_000);

  afterAll(async () => {
    await role?.stop();
    await receiver?.close();
    await sink?.close();
    await store?.stop();
  });

  const named = (name: string) => trace.filter((s) => s.name === name);
  const byId = () => new Map(trace.map((s) => [s.spanId, s]));
  /** Whether `span` hangs, through its parents, from the ingest's root span. */
  const descendsFromRoot = (span: ExportedSpan) => {
    const spansById = byId();
    let at: ExportedSpan | undefined = span;
    for (let hops = 0; at && hops < 100; hops++) {
      if (at.spanId === root.spanId) return true;
      at = at.parentSpanId ? spansById.get(at.parentSpanId) : undefined;
    }
    return false;
  };

  it('has the ingest call as its root: the HTTP server span of POST /events, with the event id, type and account', () => {
    expect(root.kind).toBe(2); // SERVER
    expect(root.service).toBe('platform-under-test');
    expect(root.attributes).toMatchObject({ 'http.request.method': 'POST', 'webhook.event.type': 'order.traced' });
    expect(root.attributes['webhook.account.id']).toMatch(/^acct_/);
  });

  it('holds the admission decision and the outbox wait, under the ingest', () => {
    const [admission] = named('webhook.ingest.admission');
    expect(admission?.attributes).toMatchObject({ 'webhook.ingest.admission': 'admitted' });
    const [wait] = named('webhook.outbox.wait');
    expect(wait?.parentSpanId).toBe(root.spanId);
    expect(wait?.attributes).toMatchObject({ 'webhook.event.id': eventId });
    expect(descendsFromRoot(admission as ExportedSpan)).toBe(true);
  });

  it('holds the workflow start and the delivery (the workflow run) as descendants of the ingest', () => {
    const start = trace.find((s) => s.name === 'StartWorkflow:deliveryWorkflow');
    const run = trace.find((s) => s.name === 'RunWorkflow:deliveryWorkflow');
    expect(start && descendsFromRoot(start)).toBe(true);
    expect(run?.parentSpanId).toBe(start?.spanId);
  });

  it('holds each attempt as an activity the run scheduled: RunActivity under StartActivity under the run, both attempts', () => {
    const run = trace.find((s) => s.name === 'RunWorkflow:deliveryWorkflow') as ExportedSpan;
    const starts = named('StartActivity:attemptDelivery');
    const runs = named('RunActivity:attemptDelivery');
    expect(starts).toHaveLength(2);
    expect(starts.map((s) => s.parentSpanId)).toEqual([run.spanId, run.spanId]);
    expect(runs.map((s) => s.parentSpanId).sort()).toEqual(starts.map((s) => s.spanId).sort());
    expect(run.attributes['temporalWorkflowId']).toMatch(/^delivery-/);
  });

  it('holds both attempts, the failed first and the retry, each with its SSRF check, POST (the first opening its connection) and recorded outcome under the delivery', () => {
    const run = trace.find((s) => s.name === 'RunWorkflow:deliveryWorkflow') as ExportedSpan;
    const under = (span: ExportedSpan, ancestor: ExportedSpan) => {
      const spansById = byId();
      for (let at: ExportedSpan | undefined = span; at; at = at.parentSpanId ? spansById.get(at.parentSpanId) : undefined) if (at.spanId === ancestor.spanId) return true;
      return false;
    };
    const outcomes = named('webhook.attempt.outcome').sort((a, b) => Number(a.attributes['webhook.attempt.number']) - Number(b.attributes['webhook.attempt.number']));
    expect(outcomes.map((s) => [s.attributes['webhook.attempt.number'], s.attributes['http.response.status_code'], s.attributes['webhook.attempt.status']])).toEqual([
      [1, 500, 'retrying'],
      [2, 200, 'succeeded'],
    ]);
    for (const outcome of outcomes) {
      expect(outcome.attributes).toMatchObject({ 'webhook.event.id': eventId, 'webhook.event.type': 'order.traced' });
      expect(outcome.attributes['webhook.endpoint.id']).toMatch(/^ep_/);
      expect(under(outcome, run)).toBe(true);
    }
    const checks = named('webhook.attempt.ssrf_check');
    expect(checks.map((s) => s.attributes['webhook.destination.allowed'])).toEqual([true, true]);
    const posts = trace.filter((s) => s.scope === '@opentelemetry/instrumentation-undici');
    expect(posts).toHaveLength(2);
    for (const span of [...checks, ...posts]) expect(under(span, run)).toBe(true);
    expect(posts.map((s) => s.attributes['url.full'])).toEqual([`${receiver.url}/traced`, `${receiver.url}/traced`]);
    // The first attempt opens the connection (lookup, TCP, TLS); the retry a second later reuses it.
    const connects = named('webhook.attempt.connect');
    expect(connects.length).toBeGreaterThanOrEqual(1);
    for (const span of connects) expect(under(span, run)).toBe(true);
    expect(connects[0]?.attributes['server.address']).toBe(new URL(receiver.url).hostname);
  });

  it("includes the routes' Koa layers (not the app-wide middleware) and the MongoDB commands of the ingest and the attempts", () => {
    const koa = trace.filter((s) => s.scope === '@opentelemetry/instrumentation-koa');
    expect(koa.some((s) => s.parentSpanId !== undefined)).toBe(true);
    expect(koa.map((s) => s.attributes['koa.type'])).toEqual(koa.map(() => 'router'));
    const mongo = trace.filter((s) => s.scope === '@opentelemetry/instrumentation-mongodb');
    expect(mongo.some((s) => s.attributes['db.collection.name'] === 'events')).toBe(true);
    expect(mongo.every(descendsFromRoot)).toBe(true);
  });

  it('makes no trace of a store command alone: background work (lease renewals, sweeps) is not traced', () => {
    expect(spans.filter((s) => s.scope === '@opentelemetry/instrumentation-mongodb' && s.parentSpanId === undefined).map((s) => s.name)).toEqual([]);
  });

  it('carries no trace context to the receiver', () => {
    expect(receiver.received.map((r) => r.headers.traceparent)).toEqual([undefined, undefined]);
  });

  it('shows nothing secret in any span: no API key, signing secret, body or signature', () => {
    const exported = sink.raw.join('\n');
    expect(secrets.signatures.length).toBeGreaterThanOrEqual(2);
    for (const secret of [secrets.key, secrets.signingSecret, secrets.signingSecret.replace(/^whsec_/, ''), secrets.marker, ...secrets.signatures]) {
      expect(secret.length).toBeGreaterThan(8);
      expect(exported).not.toContain(secret);
    }
  });

  describe("a caller's traceparent", () => {
    // The caller's trace id, and whether the caller sampled it, must not become the platform's.
    const callerTrace = 'ca11e7ca11e7ca11e7ca11e7ca11e7ca';
    const callerSpan = 'ca11e7ca11e7ca11';
    const traceparentOf = async (id: number) => (await store.repositories.events.findUnscoped(id))?.traceparent;
    const rootOf = (id: number) => eventually(async () => sink.spans.find((s) => s.attributes['webhook.event.id'] === id && s.kind === 2), 30_000);

    it.each([
      ['sampled', '01'],
      ['not sampled', '00'],
    ])('%s by the caller: the platform starts its own root at the edge and samples it by its own sampler (here every call)', async (_label, flags) => {
      const api = apiClient({ apiUrl } as Platform, apiKey);
      const sent = await api.post('/api/v1/webhooks/events', { type: 'order.traced', data: { caller: flags } }, { traceparent: `00-${callerTrace}-${callerSpan}-${flags}` });
      expect(sent.status).toBe(202);
      const root = await rootOf(sent.body.id);
      expect(root.traceId).not.toBe(callerTrace);
      expect(root.parentSpanId).toBeUndefined();
      const stored = await traceparentOf(sent.body.id);
      expect(stored).toBe(`00-${root.traceId}-${root.spanId}-01`);
      expect(sink.spans.filter((s) => s.traceId === callerTrace)).toEqual([]);
    });
  });

  it('shows no invite token in any span: an invite link opened and its password set', async () => {
    const invites = new DashboardInviteService({ accounts: store.repositories.accounts, invites: new DashboardInvites(store.db), sessions: new DashboardSessions(store.db), clock: () => new Date() });
    const account = await store.services.accounts.createAccount(`invited-${Date.now()}@example.com`, 'team');
    const path = new URL((await invites.create(account.id, apiUrl)).link).pathname;
    const token = path.split('/').pop() as string;
    expect(token.length).toBeGreaterThan(16);
    const browser = new DashboardClient(apiUrl);
    const form = await browser.get(path);
    expect(form.status).toBe(200);
    expect((await browser.post(path, { _csrf: csrfTokenIn(form.text), password: GOOD_PASSWORD })).status).toBe(303);
    // Both calls' server spans exported: their paths are shown with the token cut.
    const inviteSpans = await eventually(async () => {
      const found = sink.spans.filter((s) => s.kind === 2 && s.attributes['url.path'] === '/dashboard/invite/:token');
      return found.length >= 2 ? found : undefined;
    }, 30_000);
    expect(inviteSpans.map((s) => s.attributes['http.request.method']).sort()).toEqual(['GET', 'POST']);
    const inviteTraces = new Set(inviteSpans.map((s) => s.traceId));
    const attributesOfThem = sink.spans.filter((s) => inviteTraces.has(s.traceId)).flatMap((s) => [s.name, ...Object.values(s.attributes).map(String)]);
    expect(attributesOfThem.filter((v) => v.includes(token))).toEqual([]);
    expect(sink.raw.join('\n')).not.toContain(token);
  });
});
