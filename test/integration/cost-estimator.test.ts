import { readFile } from 'node:fs/promises';
import { CATEGORIES, Catalog, PROVIDERS } from '../../src/domain/cost-estimator';
import { CATALOG_FILE_PATH, loadCatalogFile } from '../../src/infra/load-catalog-file';
import type { Platform } from '../../src/main/platform';
import { CatalogEntries, catalogEntryId } from '../../src/persistence/catalog-entries';
import { EXAMPLE_ESTIMATE_REQUEST } from '../../src/transport/http/routes/cost-estimator-schemas';
import { apiClient, createAccountWithKey, startTestPlatform } from '../support/platform';
import { openTestDb } from '../support/test-db';

const PATH = '/api/cost-estimator';

/**
 * The cost estimator on a real platform (FerretDB + Temporal of the global set-up). The platform
 * trusts X-Forwarded-For, so each test calls from its own client IP and never shares the
 * anonymous 30-a-minute bucket with another test.
 */
describe('cost estimator over HTTP', () => {
  let platform: Platform;
  let shipped: Catalog;
  let ipCounter = 0;

  beforeAll(async () => {
    platform = await startTestPlatform({ env: { TRUST_PROXY: 'true' }, roles: { api: true, worker: false } });
    shipped = await loadCatalogFile();
  });
  afterAll(async () => {
    await platform?.stop();
  });

  /** An anonymous client with a client IP no other test uses. */
  function anonymous(ip = freshIp()) {
    const api = apiClient(platform);
    const headers = { 'X-Forwarded-For': ip };
    return {
      ip,
      get: (p: string) => api.get(p, headers),
      post: (body: unknown) => api.post(PATH, body, headers),
    };
  }
  function freshIp(): string {
    ipCounter += 1;
    return `198.51.${ipCounter >> 8}.${ipCounter & 255}`;
  }
  function keyed(key: string, ip = freshIp()) {
    const api = apiClient(platform);
    const headers = { 'x-api-key': key, 'X-Forwarded-For': ip };
    return { get: (p: string) => api.get(p, headers), post: (body: unknown) => api.post(PATH, body, headers) };
  }

  describe('GET: the catalog', () => {
    it('returns all 216 entries with their count, in catalog order', async () => {
      const res = await anonymous().get(PATH);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.body.count).toBe(216);
      expect(res.body.services).toEqual(shipped.entries);
    });

    it.each(PROVIDERS)('filters by provider %s', async (provider) => {
      const res = await anonymous().get(`${PATH}?provider=${provider}`);
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(72);
      expect(res.body.services).toEqual(shipped.entries.filter((e) => e.provider === provider));
    });

    it.each(CATEGORIES)('filters by category %s', async (category) => {
      const res = await anonymous().get(`${PATH}?category=${category}`);
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(18);
      expect(res.body.services).toEqual(shipped.entries.filter((e) => e.category === category));
    });

    it('combines the provider and category filters', async () => {
      const res = await anonymous().get(`${PATH}?provider=gcp&category=database`);
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(6);
      expect(res.body.services).toEqual(shipped.entries.filter((e) => e.provider === 'gcp' && e.category === 'database'));
    });

    it('answers an unknown provider with 400 listing the allowed providers', async () => {
      const res = await anonymous().get(`${PATH}?provider=oracle`);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'invalid_request', allowed: ['aws', 'gcp', 'azure'] });
      expect(res.body.error).toContain('oracle');
      // Outside the body, as every route's query errors: query.<name>.
      expect(res.body.details).toEqual([{ path: 'query.provider', message: 'must be one of: aws, gcp, azure' }]);
    });

    it('answers an unknown category with 400 listing the allowed categories', async () => {
      const res = await anonymous().get(`${PATH}?provider=aws&category=quantum`);
      expect(res.status).toBe(400);
      expect(res.body.allowed).toEqual([...CATEGORIES]);
      expect(res.body.details).toEqual([{ path: 'query.category', message: expect.any(String) }]);
    });

    it('answers a repeated filter with 400 listing the allowed values', async () => {
      const res = await anonymous().get(`${PATH}?provider=aws&provider=gcp`);
      expect(res.status).toBe(400);
      expect(res.body.allowed).toEqual(['aws', 'gcp', 'azure']);
    });

    it('treats filter values as case-sensitive', async () => {
      const res = await anonymous().get(`${PATH}?provider=AWS`);
      expect(res.status).toBe(400);
    });
  });

  describe('POST: an estimate', () => {
    it('prices a multi-item request exactly: lines rounded half-up to cents, total from the unrounded sum', async () => {
      const res = await anonymous().post({
        items: [
          // per hour, default 730 h: 3 × 0.096 × 730 = 210.24
          { provider: 'aws', service: 'Amazon EC2', instance: 'm5.large', quantity: 3 },
          // per GB/month: 1 × 0.023 × 1000 = 23
          { provider: 'aws', service: 'Amazon S3', instance: 'Standard', quantity: 1, gbPerMonth: 1000 },
          // per hour with hoursPerMonth: 2 × 0.033503 × 100 = 6.7006 → 6.70
          { provider: 'gcp', service: 'Compute Engine', instance: 'e2-medium', quantity: 2, hoursPerMonth: 100 },
          // per million requests: 5 × 0.2 = 1
          { provider: 'aws', service: 'AWS Lambda', instance: 'Requests', quantity: 5 },
          // the service's only instance, per month: 4 × 0.5 = 2
          { provider: 'aws', service: 'Amazon Route 53', quantity: 4 },
          // per GB-second: 400000 × 0.0000166667 = 6.66668 → 6.67
          { provider: 'aws', service: 'AWS Lambda', instance: 'Duration (x86)', quantity: 400000 },
        ],
      });
      expect(res.status).toBe(200);
      // 210.24 + 23 + 6.7006 + 1 + 2 + 6.66668 = 249.60728 → 249.61; × 12 = 2995.32
      expect(res.body.totalMonthlyUsd).toBe(249.61);
      expect(res.body.totalAnnualUsd).toBe(2995.32);
      expect(res.body.breakdown.map((l: { monthlyUsd: number }) => l.monthlyUsd)).toEqual([210.24, 23, 6.7, 1, 2, 6.67]);
      expect(res.body.breakdown[0]).toEqual({
        provider: 'aws',
        service: 'Amazon EC2',
        instance: 'm5.large',
        quantity: 3,
        unitPrice: 0.096,
        priceUnit: 'per hour',
        monthlyUsd: 210.24,
      });
      expect(res.body.breakdown[4]).toMatchObject({ service: 'Amazon Route 53', instance: 'Hosted zone', priceUnit: 'per month' });
    });

    it('stamps generatedAt as ISO 8601 UTC with milliseconds', async () => {
      const before = Date.now();
      const res = await anonymous().post({ items: [{ provider: 'aws', service: 'Amazon EC2', instance: 't3.micro', quantity: 1 }] });
      expect(res.body.generatedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(Date.parse(res.body.generatedAt)).toBeGreaterThanOrEqual(before - 1000);
    });

    it('answers the documented example request with the documented example response', async () => {
      const doc = (await apiClient(platform).get('/openapi.json')).body;
      const documented = doc.paths[PATH].post.responses['200'].content['application/json'].example;
      const res = await anonymous().post(EXAMPLE_ESTIMATE_REQUEST);
      expect(res.status).toBe(200);
      expect({ ...res.body, generatedAt: undefined }).toEqual({ ...documented, generatedAt: undefined });
      expect(doc.paths[PATH].post.requestBody.content['application/json'].schema.example).toEqual(EXAMPLE_ESTIMATE_REQUEST);
    });

    it('accepts 100 items', async () => {
      const item = { provider: 'aws', service: 'Amazon EC2', instance: 't3.micro', quantity: 1 };
      const res = await anonymous().post({ items: Array.from({ length: 100 }, () => item) });
      expect(res.status).toBe(200);
      expect(res.body.breakdown).toHaveLength(100);
      // 100 × 0.0104 × 730 = 759.2
      expect(res.body.totalMonthlyUsd).toBe(759.2);
    });
  });

  describe('POST: errors', () => {
    const ec2 = { provider: 'aws', service: 'Amazon EC2', instance: 'm5.large', quantity: 1 };

    it('answers an unknown provider with 400', async () => {
      const res = await anonymous().post({ items: [{ ...ec2, provider: 'oracle' }] });
      expect(res.status).toBe(400);
      expect(res.body.details).toEqual([expect.objectContaining({ path: 'items.0.provider' })]);
    });

    it('answers an unknown service with 422 naming the item index', async () => {
      const res = await anonymous().post({ items: [ec2, { ...ec2, service: 'Amazon Quantum' }] });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ code: 'unknown_service', index: 1 });
    });

    it('answers an unknown instance with 422 naming the item index and listing the instances', async () => {
      const res = await anonymous().post({ items: [ec2, ec2, { ...ec2, instance: 'x9.huge' }] });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ code: 'unknown_instance', index: 2 });
      expect(res.body.instances).toEqual(shipped.instancesOf('aws', 'Amazon EC2').map((e) => e.instance));
    });

    it('answers an omitted instance of a service with several with 422 listing them', async () => {
      const res = await anonymous().post({ items: [{ provider: 'aws', service: 'Amazon EC2', quantity: 1 }] });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({
        code: 'instance_required',
        index: 0,
        instances: ['c5.xlarge', 'm5.large', 'm5.xlarge', 'r5.large', 't3.medium', 't3.micro'],
      });
    });

    it.each([0, -1])('answers quantity %d with 400', async (quantity) => {
      const res = await anonymous().post({ items: [{ ...ec2, quantity }] });
      expect(res.status).toBe(400);
      expect(res.body.details).toEqual([expect.objectContaining({ path: 'items.0.quantity' })]);
    });

    it('answers hoursPerMonth over 744 with 400', async () => {
      const res = await anonymous().post({ items: [{ ...ec2, hoursPerMonth: 745 }] });
      expect(res.status).toBe(400);
      expect(res.body.details).toEqual([expect.objectContaining({ path: 'items.0.hoursPerMonth' })]);
    });

    it('accepts hoursPerMonth of exactly 744', async () => {
      const res = await anonymous().post({ items: [{ ...ec2, hoursPerMonth: 744 }] });
      expect(res.status).toBe(200);
      expect(res.body.totalMonthlyUsd).toBe(71.42); // 0.096 × 744 = 71.424
    });

    it('prices a quantity by the digits sent, not by its nearest double, and answers it as sent', async () => {
      const kms = '{"provider":"aws","service":"AWS KMS","instance":"Customer managed key"';
      const res = await fetch(`${platform.apiUrl}${PATH}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': freshIp() },
        body: `{"items":[${kms},"quantity":1000000000.00499999999}]}`,
      });
      const text = await res.text();
      expect(res.status).toBe(200);
      expect(text).toContain('"quantity":1000000000.00499999999');
      expect(JSON.parse(text).totalMonthlyUsd).toBe(1000000000); // $1 a key: 1000000000.00499999999 rounds to .00, its double (…0.005) to .01
    });

    it.each([
      ['hoursPerMonth just over 744', '"quantity":1,"hoursPerMonth":744.0000000000000001', 'hoursPerMonth'],
      ['gbPerMonth just under 0', '"quantity":1,"gbPerMonth":-1e-400', 'gbPerMonth'],
    ])('answers %s (its double within bounds) with 400 naming the field', async (_name, fields, field) => {
      const item = field === 'gbPerMonth' ? '{"provider":"aws","service":"Amazon S3","instance":"Standard"' : '{"provider":"aws","service":"Amazon EC2","instance":"c5.xlarge"';
      const res = await anonymous().post(`{"items":[${item},${fields}}]}`);
      expect(res.status).toBe(400);
      expect(res.body.details).toEqual([{ path: `items.0.${field}`, message: expect.any(String) }]);
    });

    it('answers a negative gbPerMonth with 400', async () => {
      const res = await anonymous().post({ items: [{ provider: 'aws', service: 'Amazon S3', instance: 'Standard', quantity: 1, gbPerMonth: -1 }] });
      expect(res.status).toBe(400);
    });

    it('answers a per-GB item without gbPerMonth with 400 naming the field', async () => {
      const res = await anonymous().post({ items: [ec2, { provider: 'aws', service: 'Amazon S3', instance: 'Standard', quantity: 1 }] });
      expect(res.status).toBe(400);
      expect(res.body.details).toEqual([expect.objectContaining({ path: 'items.1.gbPerMonth' })]);
    });

    it('answers an empty items array with 400', async () => {
      const res = await anonymous().post({ items: [] });
      expect(res.status).toBe(400);
      expect(res.body.details).toEqual([expect.objectContaining({ path: 'items' })]);
    });

    it('answers more than 100 items with 400', async () => {
      const res = await anonymous().post({ items: Array.from({ length: 101 }, () => ec2) });
      expect(res.status).toBe(400);
      expect(res.body.details).toEqual([expect.objectContaining({ path: 'items' })]);
    });

    it('answers a missing items field with 400', async () => {
      const res = await anonymous().post({});
      expect(res.status).toBe(400);
    });

    it('answers a misspelt usage field with 400 instead of pricing it at the default', async () => {
      const res = await anonymous().post({ items: [{ ...ec2, hoursPerMonht: 10 }] });
      expect(res.status).toBe(400);
    });

    it('answers malformed JSON with 400', async () => {
      const res = await anonymous().post('{"items": [');
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('invalid_json');
    });
  });

  describe('anonymous access: 30 calls a minute per client IP', () => {
    it('carries the limit headers, counting this call', async () => {
      const res = await anonymous().get(`${PATH}?provider=aws`);
      expect(res.headers.get('x-ratelimit-limit')).toBe('30');
      expect(res.headers.get('x-ratelimit-remaining')).toBe('29');
      expect(Number(res.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
      expect(res.headers.get('x-quota-used')).toBe('1');
      expect(res.headers.get('x-quota-limit')).toBe('unlimited');
    });

    it('answers the 31st call in a window with 429, retry_after, remaining 0 and Retry-After', async () => {
      const client = anonymous();
      for (let i = 1; i <= 30; i++) {
        const res = i % 2 ? await client.get(PATH) : await client.post({ items: [{ provider: 'aws', service: 'Amazon Route 53', quantity: 1 }] });
        expect(res.status).toBe(200);
        expect(res.headers.get('x-ratelimit-remaining')).toBe(String(30 - i));
      }
      const res = await client.get(PATH);
      expect(res.status).toBe(429);
      expect(res.body).toEqual({ error: expect.any(String), code: 'rate_limit_exceeded', retry_after: expect.any(Number), remaining: 0 });
      expect(res.body.retry_after).toBeGreaterThanOrEqual(1);
      expect(res.body.retry_after).toBeLessThanOrEqual(60);
      expect(res.headers.get('retry-after')).toBe(String(res.body.retry_after));
      expect(res.headers.get('x-ratelimit-limit')).toBe('30');
      expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(res.headers.get('x-ratelimit-reset')).toMatch(/^\d+$/);
      expect(res.headers.get('x-quota-limit')).toBe('unlimited');
    });

    it('gives another client IP its own budget', async () => {
      const exhausted = anonymous();
      for (let i = 0; i < 30; i++) await exhausted.get(`${PATH}?category=cdn`);
      expect((await exhausted.get(PATH)).status).toBe(429);
      const other = await anonymous().get(PATH);
      expect(other.status).toBe(200);
      expect(other.headers.get('x-ratelimit-remaining')).toBe('29');
    });

    it('meters a call whose body is not JSON', async () => {
      const client = anonymous();
      expect((await client.post('not json')).status).toBe(400);
      const res = await client.get(PATH);
      expect(res.headers.get('x-ratelimit-remaining')).toBe('28');
    });
  });

  describe('access with x-api-key', () => {
    it('applies the account tier of a key of any product (Free: the 11th call is 429)', async () => {
      const { key } = await createAccountWithKey(platform, { tier: 'free', product: 'sec' });
      const client = keyed(key);
      for (let i = 1; i <= 10; i++) {
        const res = await client.get(`${PATH}?provider=azure`);
        expect(res.status).toBe(200);
        expect(res.headers.get('x-ratelimit-limit')).toBe('10');
        expect(res.headers.get('x-quota-used')).toBe(String(i));
        expect(res.headers.get('x-quota-limit')).toBe('500');
      }
      const res = await client.get(PATH);
      expect(res.status).toBe(429);
      expect(res.body).toMatchObject({ code: 'rate_limit_exceeded', remaining: 0 });
      expect(res.headers.get('retry-after')).toBe(String(res.body.retry_after));
    });

    it("records the call in the account's usage, shared with its key-scoped calls", async () => {
      const { key, accountId } = await createAccountWithKey(platform, { tier: 'developer', product: 'sec' });
      const weh = await platform.services.accounts.createKey(accountId, 'weh', 'webhooks');
      expect((await keyed(key).post({ items: [{ provider: 'azure', service: 'Azure DNS', quantity: 1 }] })).headers.get('x-quota-used')).toBe('1');
      const webhookCall = await apiClient(platform, weh.key).get('/api/v1/webhooks/endpoints');
      expect(webhookCall.status).toBe(200);
      expect(webhookCall.headers.get('x-quota-used')).toBe('2');
      expect(await platform.services.limiter.usage(`acct:${accountId}`)).toBe(2);
    });

    it("does not spend the client IP's anonymous budget", async () => {
      const { key } = await createAccountWithKey(platform, { tier: 'team', product: 'pii' });
      const ip = freshIp();
      await keyed(key, ip).get(PATH);
      const res = await anonymous(ip).get(PATH);
      expect(res.headers.get('x-ratelimit-limit')).toBe('30');
      expect(res.headers.get('x-ratelimit-remaining')).toBe('29');
    });

    it.each([
      ['malformed', 'not-a-key'],
      ['unknown', `svc_live_sec_${'0'.repeat(32)}`],
      ['empty', ''],
    ])('answers a %s x-api-key with 401 and no limit headers', async (_kind, value) => {
      const res = await keyed(value).get(PATH);
      expect(res.status).toBe(401);
      expect(res.body.code).toMatch(/api_key/);
      expect(res.headers.get('x-ratelimit-limit')).toBeNull();
    });

    it('answers a revoked x-api-key with 401', async () => {
      const { key, keyId } = await createAccountWithKey(platform, { tier: 'free', product: 'dep' });
      expect((await keyed(key).get(PATH)).status).toBe(200);
      await platform.services.accounts.revokeKey(keyId);
      const res = await keyed(key).get(PATH);
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('revoked_api_key');
    });

    it('answers a bad x-api-key with 401 even when the body is not JSON', async () => {
      const res = await keyed('nope').post('{');
      expect(res.status).toBe(401);
    });
  });

  describe('catalog in MongoDB', () => {
    it('holds the 216 entries of the file after start-up, in position order, with the synced version', async () => {
      const entries = new CatalogEntries(platform.db);
      const docs = await platform.db.collection('catalog_entries').find({}).sort({ position: 1 }).toArray();
      expect(docs).toHaveLength(216);
      expect(docs.map((d) => d._id)).toEqual(shipped.entries.map(catalogEntryId));
      expect(docs.every((d) => d.version === shipped.version)).toBe(true);
      expect((await entries.loadCatalog()).version).toBe(shipped.version);
    });

    it('is unchanged by a second sync: still 216 documents, nothing rewritten', async () => {
      const entries = new CatalogEntries(platform.db);
      const result = await entries.syncCatalog(shipped);
      expect(result).toEqual({ version: shipped.version, upserted: 0, unchanged: 216, deleted: 0 });
      expect(await platform.db.collection('catalog_entries').countDocuments()).toBe(216);
    });

    it('is not duplicated when a second platform starts on the same database', async () => {
      const second = await startTestPlatform({ sameAs: platform, roles: { api: true, worker: false } });
      try {
        expect(await platform.db.collection('catalog_entries').countDocuments()).toBe(216);
        const ids = await platform.db.collection('catalog_entries').distinct('_id');
        expect(ids).toHaveLength(216);
      } finally {
        await second.stop();
      }
    });
  });
});

describe('catalog sync', () => {
  let test: Awaited<ReturnType<typeof openTestDb>>;
  let raw: any;

  beforeAll(async () => {
    test = await openTestDb('catalog_sync');
    raw = JSON.parse(await readFile(CATALOG_FILE_PATH, 'utf8'));
  });
  afterAll(async () => {
    await test?.close();
  });

  /** The shipped file with `change` applied to a copy. */
  function variant(change: (file: any) => void): Catalog {
    const copy = structuredClone(raw);
    change(copy);
    return Catalog.parse(copy);
  }

  it('updates a changed price in place', async () => {
    const entries = new CatalogEntries(test.db);
    await entries.syncCatalog(Catalog.parse(raw));
    const changed = variant((f) => {
      f.version = 'test-price';
      f.entries[1].priceUsd = 0.1;
    });
    const result = await entries.syncCatalog(changed);
    expect(result).toMatchObject({ upserted: 216, deleted: 0 }); // every document records the new version
    const doc = await test.db.collection('catalog_entries').findOne({ _id: catalogEntryId(raw.entries[1]) as never });
    expect(doc).toMatchObject({ priceUsd: 0.1, version: 'test-price', position: 1 });
    expect(await test.db.collection('catalog_entries').countDocuments()).toBe(216);
  });

  it('deletes an entry no longer in the file and adds its replacement', async () => {
    const entries = new CatalogEntries(test.db);
    await entries.syncCatalog(Catalog.parse(raw));
    const renamed = variant((f) => {
      // t3.micro is the last EC2 instance, so a later name keeps catalog order.
      f.entries[5].instance = 't3.nano-renamed';
    });
    const result = await entries.syncCatalog(renamed);
    expect(result).toMatchObject({ upserted: 1, deleted: 1 });
    const ids = await test.db.collection('catalog_entries').distinct('_id');
    expect(ids).toHaveLength(216);
    expect(ids).not.toContain(catalogEntryId(raw.entries[5]));
    expect(ids).toContain('aws|Amazon EC2|t3.nano-renamed');
  });

  it('loads back exactly what the database holds, in catalog order', async () => {
    const entries = new CatalogEntries(test.db);
    const changed = variant((f) => {
      f.version = 'test-load';
      f.entries[0].priceUsd = 0.5;
    });
    await entries.syncCatalog(changed);
    const loaded = await entries.loadCatalog();
    expect(loaded.version).toBe('test-load');
    expect(loaded.entries).toEqual(changed.entries);
  });
});
