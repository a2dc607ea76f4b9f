import { execFile, execFileSync } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { libraryTests } from '../support/library-tests';
import { apiClient, createAccountWithKey, eventually } from '../support/platform';
import { receivingPlatform } from '../support/receiving-platform';
import { ReceiverProcess, sendRaw, startReceiverProcess, startTypeScriptReceiver } from '../support/receiver-processes';
import { sendEventAccepted } from '../support/send-event';
import { ensureReceiverToolchains, NPM_ORACLE_MODULE, RECEIVERS_DIR, VENV_PYTHON } from '../support/receiver-toolchains';
import { verifySignature } from '../support/spec-signature';

const run = promisify(execFile);

/** The part of the official npm `standardwebhooks` package used here (installed outside node_modules, so typed by hand). */
interface OfficialNpmPackage {
  Webhook: new (secret: string) => { verify(payload: string, headers: Record<string, string>): unknown };
}
const tls = () => {
  const certFile = process.env.NODE_EXTRA_CA_CERTS as string;
  return { certFile, keyFile: certFile.replace(/\.pem$/, '.key') };
};

describe('receiver libraries (receivers/)', () => {
  beforeAll(() => ensureReceiverToolchains(() => undefined), 300_000);

  it('the TypeScript library passes its tests, every test vector included', async () => {
    const out = await libraryTests(path.join(__dirname, '..', '..', 'node_modules', '.bin', 'tsx'), ['--test', 'test/vectors.test.ts', 'test/verify.test.ts'], path.join(RECEIVERS_DIR, 'typescript'));
    expect(out).toMatch(/# fail 0/);
    expect(Number(/# pass (\d+)/.exec(out)?.[1])).toBeGreaterThan(100);
  });

  it('the Python library passes its tests, every test vector included', async () => {
    const out = await libraryTests(VENV_PYTHON, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider'], path.join(RECEIVERS_DIR, 'python'));
    expect(Number(/(\d+) passed/.exec(out)?.[1])).toBeGreaterThan(50);
    expect(out).not.toMatch(/failed|skipped/);
  });

  it('the Go library passes its tests, every test vector included', async () => {
    const out = await libraryTests('go', ['test', '-count=1', '-v', './...'], path.join(RECEIVERS_DIR, 'go'));
    expect((out.match(/--- PASS: TestVectors\//g) ?? []).length).toBeGreaterThan(50);
    expect(out).not.toMatch(/--- FAIL|--- SKIP/);
  });
});

describe('real deliveries verified by each library and by the official Standard Webhooks packages', () => {
  const fixture = receivingPlatform();
  const started: ReceiverProcess[] = [];
  let goBinary: string;

  beforeAll(async () => {
    await ensureReceiverToolchains(() => undefined);
    goBinary = path.join(await mkdtemp(path.join(os.tmpdir(), 'go-receiver-')), 'example-receiver');
    await run('go', ['build', '-o', goBinary, './cmd/example-receiver'], { cwd: path.join(RECEIVERS_DIR, 'go') });
  }, 300_000);
  afterAll(() => started.forEach((r) => r.stop()));

  const start = async (kind: 'typescript' | 'python' | 'go', secrets: string[], clockOffsetSeconds = 0) => {
    const options = { secrets, clockOffsetSeconds, tls: tls() };
    const receiver = kind === 'typescript' ? await startTypeScriptReceiver(options) : await startReceiverProcess(kind, goBinary, options);
    started.push(receiver);
    return receiver;
  };

  it('each library accepts real deliveries, the official packages agree, and each refuses a replay 6 minutes later and a tampered copy', async () => {
    const { key } = await createAccountWithKey(fixture.platform);
    const api = apiClient(fixture.platform, key);
    const kinds = ['typescript', 'python', 'go'] as const;
    const setups = [];
    for (const kind of kinds) {
      // The secret comes with the endpoint, so the endpoint is made first and pointed at the receiver after.
      const endpoint = (await api.post('/api/v1/webhooks/endpoints', { url: 'https://127.0.0.1:9/placeholder' })).body;
      const now = await start(kind, [endpoint.secret]);
      const later = await start(kind, [endpoint.secret], 360);
      expect((await api.patch(`/api/v1/webhooks/endpoints/${endpoint.id}`, { url: `${now.url}/hook` })).status).toBe(200);
      setups.push({ kind, secret: endpoint.secret as string, now, later });
    }
    const events = [
      { type: 'order.created', data: { order: 'ord_1', total: 12.5 } },
      { type: 'user.renamed', data: { name: 'Zoë 日本語 🚀', note: 'naïve – “quoted”' } },
      { type: 'report.ready', data: { rows: Array.from({ length: 2000 }, (_, i) => ({ i, label: `row ${i}` })) } },
    ];
    const ids: number[] = [];
    for (const event of events) ids.push((await sendEventAccepted(api, event)).body.id);
    for (const id of ids) {
      await eventually(async () => {
        const event = (await api.get(`/api/v1/webhooks/events/${id}`)).body;
        return event.deliveries.length === 3 && event.deliveries.every((d: any) => d.status === 'succeeded');
      }, 60_000);
    }

    const { Webhook } = require(NPM_ORACLE_MODULE) as OfficialNpmPackage;
    const forPython: unknown[] = [];
    for (const { kind, secret, now, later } of setups) {
      // Each library's receiver answered 200 (the delivery succeeded) to exactly these requests, and only once each.
      expect({ kind, statuses: now.requests.map((r) => r.status) }).toEqual({ kind, statuses: [200, 200, 200] });
      expect(new Set(now.requests.map((r) => r.headers['webhook-id']))).toEqual(new Set(ids.map(String)));
      // A copy: the tampered requests sent below are logged too.
      for (const request of [...now.requests]) {
        expect(request.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
        // The spec's own scheme, unchanged.
        expect(verifySignature(secret, request.body.toString('utf8'), request.headers['x-webhook-signature'])).toBe(true);
        // The official npm package (the oracle): throws on anything it refuses.
        expect(new Webhook(secret).verify(request.body.toString('utf8'), request.headers)).toEqual(JSON.parse(request.body.toString('utf8')));
        forPython.push({ secret, headers: request.headers, body_base64: request.body.toString('base64') });

        const replay = await sendRaw(`${later.url}/hook`, request.headers, request.body);
        expect({ kind, replay }).toEqual({ kind, replay: { status: 401, body: { error: 'timestamp_too_old' } } });
        const tampered = Buffer.from(request.body.toString('utf8').replace('"id":', '"id": '));
        expect({ kind, tampered: await sendRaw(`${now.url}/hook`, request.headers, tampered) }).toEqual({ kind, tampered: { status: 401, body: { error: 'no_matching_signature' } } });
      }
    }
    // The official PyPI package (the oracle) on the same requests.
    const results = JSON.parse(execFileSync(VENV_PYTHON, [path.join(RECEIVERS_DIR, 'python', 'tests', 'oracle_check.py')], { input: JSON.stringify(forPython), maxBuffer: 64 << 20 }).toString());
    expect(results).toEqual(forPython.map(() => 'valid'));
  });
});
