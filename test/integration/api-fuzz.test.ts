import fc from 'fast-check';
import type { Platform } from '../../src/main/platform';
import { arbitraryFor, type OpenApiDocument } from '../support/openapi-arbitraries';
import { apiClient, createAccountWithKey, startTestPlatform } from '../support/platform';
import { startReceiver } from '../support/receiver';
import { changedSomething, described, recordStoreWrites, type StoreWrite } from '../support/store-writes';
import { sendEventAccepted } from '../support/send-event';

/** Runs per property; a seed makes a run repeatable (FUZZ_SEED; a failure prints the seed and path to replay it). */
const RUNS = Number(process.env.FUZZ_RUNS ?? 1_500);
const SEED = Number(process.env.FUZZ_SEED ?? 20261130);
/** What only records outside the portal's tenant carry: no answer to its token may contain it. */
const OTHERS = 'not-for-tenant-1';

/** What every call writes, refused or not: its account's burst window and monthly count, and this process's heartbeat. */
const METERING = new Set(['limit_windows', 'limit_usage', 'api_instances']);

const BAD_IDS = ['', ' ', '%', '%00', '..', 'ep_000000000000000000000000', 'a'.repeat(3_000), 'a'.repeat(17_000), '\ud800', '0', '-1', '1.5', '99999999999999999999', '$where'];

interface FuzzRequest {
  method: string;
  path: string;
  pathParams: Record<string, string>;
  query: Array<[string, string]>;
  body: string | undefined;
  contentType: string;
  idempotencyKey: string | undefined;
  caller: 'key' | 'portal' | 'read-only portal';
}

/**
 * Every operation of the OpenAPI document, called with requests drawn from its own schemas (mostly of their shape, often
 * wrong in one place, sometimes nonsense), by a key of the account and by its tenant's portal tokens. The spec: no input
 * gets a 5xx, every error is the JSON error body, and a refused request changes nothing.
 *
 * No worker runs, so the API's are the only writes to the store: a refused request's are its own. Retry now, the one
 * call a worker answers, is left out (without a worker it waits its 10 s: updates-without-workers.test.ts).
 */
describe('every operation against generated requests', () => {
  let platform: Platform;
  /** The store writes sent since the last request was. */
  let writes: StoreWrite[] = [];
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let doc: OpenApiDocument;
  let callers: Record<FuzzRequest['caller'], string>;
  let ids: Record<string, string[]>;
  let plausible: Record<string, unknown[]>;

  beforeAll(async () => {
    platform = await startTestPlatform({ roles: { api: true, worker: false } });
    writes = recordStoreWrites(platform.mongo);
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await platform?.stop();
  });

  /** A new account with tenant-1's, tenant-2's and its own endpoints and events, and tenant-1's portal tokens: each property starts from it (the other's calls may have deleted or revoked them). */
  async function freshAccount() {
    const { key } = await createAccountWithKey(platform);
    const api = apiClient(platform, key);
    doc = (await api.get('/openapi.json')).body;
    await api.post('/api/v1/webhooks/event-types', { name: 'order.created', schema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } });
    const mine = (await api.post('/api/v1/webhooks/endpoints', { url: receiver.url, tenant_id: 'tenant-1', events: ['order.*'] })).body;
    const theirs = (await api.post('/api/v1/webhooks/endpoints', { url: receiver.url, tenant_id: 'tenant-2', description: OTHERS })).body;
    const own = (await api.post('/api/v1/webhooks/endpoints', { url: receiver.url, description: OTHERS })).body;
    const events = await Promise.all(
      [{ tenant_id: 'tenant-1' }, { tenant_id: 'tenant-2', data: { n: 1, m: OTHERS } }, { data: { n: 2, m: OTHERS } }].map(
        async (e) => (await sendEventAccepted(api, { type: 'order.created', data: { n: 0 }, ...e })).body.id as number,
      ),
    );
    const portal = async (readOnly: boolean) => (await api.post('/api/v1/webhooks/portal-sessions', { tenant_id: 'tenant-1', read_only: readOnly })).body.token as string;
    callers = { key, portal: await portal(false), 'read-only portal': await portal(true) };
    ids = {
      id: [mine.id, theirs.id, own.id],
      endpoint_id: [mine.id, theirs.id, own.id],
      event_id: events.map(String),
      tenant_id: ['tenant-1', 'tenant-2'],
      name: ['order.created', 'order.refunded'],
    };
    plausible = {
      // Nothing outside this machine: names under .invalid never resolve, and 127.0.0.1:1 refuses at once.
      url: [receiver.url, 'https://hook.invalid/', 'https://127.0.0.1:1/', 'https://[::ffff:127.0.0.1]:1/', 'http://hook.invalid/', 'https://u:p@hook.invalid/'],
      type: ['order.created', 'order.refunded', 'platform.x'],
      events: [['*'], ['order.*'], ['platform.*'], ['order.created', 'order.*']],
      tenant_id: ['tenant-1', 'tenant-2', 'tenant-3'],
      idempotency_key: ['k1', 'k2'],
      data: [{ n: 1 }, { n: 'one' }, {}, [1], null],
      schema: [{ type: 'object' }, { type: 'string', pattern: '^(a+)+$' }, { $ref: '#/$defs/x', $defs: { x: {} } }, { type: 'array', uniqueItems: true }, { nope: 1 }],
      example: [{ n: 1 }, 'aaaa', {}],
      since: [new Date(Date.now() - 3_600_000).toISOString(), '2020-01-01T00:00:00Z'],
      uri: ['amqps://mq.invalid/prod', 'amqp://127.0.0.1:1/', 'amqps://u:p@mq.invalid/'],
      brokers: [['kafka.invalid:9093'], ['127.0.0.1:1'], ['[::1]:1', 'x']],
      queue_url: ['https://127.0.0.1:1/000000000000/orders', 'https://127.0.0.1:1/000000000000/q.fifo', 'https://sqs.invalid/123456789012/orders'],
      allowed_origins: [['https://app.example.com'], ['http://localhost:3000'], ['https://*.example.com']],
      logo_url: ['https://example.com/logo.png', 'javascript:alert(1)'],
      cursor: ['abc', 'eyJ4IjoxfQ', ''],
      service: ['ec2', 'compute', 'nope'],
      instance: ['t3.micro', 'e2-standard-2', 'nope'],
    };
  }

  /** Requests to the operations `included` keeps (all by default), each made by one of `caller`. */
  function requests(caller: fc.Arbitrary<FuzzRequest['caller']>, included = (_method: string, _path: string) => true): fc.Arbitrary<FuzzRequest> {
    const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).filter(([method]) => included(method, path) && !path.endsWith('/retry-now')).map(([method, op]) => {
        const pathNames = [...path.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1]!);
        const queryParams = (op.parameters ?? []).filter((p) => p.in === 'query');
        const bodySchema = op.requestBody?.content['application/json']?.schema;
        return fc.record<FuzzRequest>({
          method: fc.constant(method.toUpperCase()),
          path: fc.constant(path),
          pathParams: fc.record(Object.fromEntries(pathNames.map((n) => [n, fc.oneof({ arbitrary: fc.constantFrom(...ids[n]!), weight: 6 }, { arbitrary: fc.constantFrom(...BAD_IDS), weight: 1 })]))) as fc.Arbitrary<Record<string, string>>,
          query: fc.array(
            fc.oneof(
              ...queryParams.map((p) => ({ arbitrary: fc.tuple(fc.constant(p.name), arbitraryFor(p.schema, doc, plausible, p.name).map(String)), weight: 8 })),
              { arbitrary: fc.tuple(fc.constant('unknown'), fc.string()), weight: 1 },
            ),
            { maxLength: 3 },
          ),
          body: method === 'get' ? fc.constant(undefined) : fc.oneof({ arbitrary: arbitraryFor(bodySchema ?? { type: 'object' }, doc, plausible).map((v) => JSON.stringify(v)), weight: 19 }, { arbitrary: fc.constantFrom('', '{', 'null', '[]', '{"a":1}x'), weight: 1 }),
          contentType: fc.oneof({ arbitrary: fc.constant('application/json'), weight: 8 }, { arbitrary: fc.constantFrom('text/plain', 'application/x-www-form-urlencoded'), weight: 1 }),
          idempotencyKey: fc.oneof({ arbitrary: fc.constant(undefined), weight: 6 }, { arbitrary: fc.constantFrom('k1', 'k2', ' ', 'é', 'a'.repeat(300)), weight: 1 }),
          caller,
        });
      }),
    );
    return fc.oneof(...operations);
  }

  async function send(r: FuzzRequest) {
    const safe = (s: string) => encodeURIComponent(s.replace(/[\ud800-\udfff]/g, '\ufffd'));
    const path = r.path.replace(/\{([a-z_]+)\}/g, (_, n: string) => safe(r.pathParams[n] ?? ''));
    const query = r.query.map(([k, v]) => `${k}=${safe(v)}`).join('&');
    // The estimator takes its key in x-api-key (or none); every other operation a bearer key or portal token.
    const headers: Record<string, string> = r.path.startsWith('/api/cost-estimator') ? { 'X-Api-Key': callers.key } : { Authorization: `Bearer ${callers[r.caller]}` };
    if (r.body !== undefined) headers['Content-Type'] = r.contentType;
    if (r.idempotencyKey !== undefined) headers['Idempotency-Key'] = r.idempotencyKey;
    writes.length = 0;
    const res = await fetch(`${platform.apiUrl}${path}${query ? `?${query}` : ''}`, { method: r.method, headers, body: r.body });
    return { status: res.status, text: await res.text(), contentType: res.headers.get('content-type') ?? '' };
  }

  it('answers no generated request with a 5xx, and every error with the JSON error body', async () => {
    await freshAccount();
    await fc.assert(
      fc.asyncProperty(requests(fc.constantFrom('key', 'key', 'portal', 'read-only portal')), async (r) => {
        const { status, text, contentType } = await send(r);
        expect(status).toBeLessThan(500);
        if (status >= 400) {
          expect(contentType).toMatch(/^application\/json/);
          expect(JSON.parse(text)).toMatchObject({ error: expect.any(String), code: expect.any(String) });
        }
      }),
      { numRuns: RUNS, seed: SEED },
    );
  });

  it('changes nothing in the store for a refused request but its metering', async () => {
    await freshAccount();
    await fc.assert(
      fc.asyncProperty(requests(fc.constantFrom('key', 'key', 'portal', 'read-only portal')), async (r) => {
        const { status } = await send(r);
        if (status >= 400) expect(writes.filter((w) => changedSomething(w) && !METERING.has(w.collection)).map(described)).toEqual([]);
      }),
      { numRuns: RUNS, seed: SEED + 2 },
    );
  });

  it("shows a tenant's portal token nothing of another tenant or of the account's own endpoints and events", async () => {
    await freshAccount();
    // What a portal session may call (the others are 403 portal_not_allowed before anything is read).
    const portalPaths = (method: string, path: string) => /^\/api\/v1\/webhooks\/(endpoints|events)/.test(path) || (method === 'get' && /event-types|portal-settings/.test(path));
    let answersWithTheTenantsRecords = 0;
    await fc.assert(
      fc.asyncProperty(
        requests(fc.constantFrom('portal', 'portal', 'read-only portal'), portalPaths),
        async (r) => {
          const { status, text } = await send(r);
          if (status < 300) expect(text).not.toContain(OTHERS);
          if (status < 300 && text.includes('"tenant_id":"tenant-1"')) answersWithTheTenantsRecords++;
        },
      ),
      { numRuns: RUNS, seed: SEED + 1 },
    );
    // The tokens were not revoked early: the portal was answered with its tenant's records all along.
    expect(answersWithTheTenantsRecords).toBeGreaterThan(RUNS / 50);
  });
});
