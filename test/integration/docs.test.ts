import type { Platform } from '../../src/main/platform';
import { startTestPlatform } from '../support/platform';

/** Over HTTP (the browser test renders it): /docs, its renderer and its policy. */
describe('/docs', () => {
  let platform: Platform;
  beforeAll(async () => {
    platform = await startTestPlatform({ roles: { api: true, worker: false } });
  });
  afterAll(async () => {
    await platform?.stop();
  });

  it('is a server-rendered list of every operation that loads Redoc from our own origin, under a script policy without inline code', async () => {
    const res = await fetch(`${platform.apiUrl}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self';");
    expect(csp).not.toMatch(/script-src[^;]*unsafe/);
    const page = await res.text();
    const scripts = [...page.matchAll(/<script([^>]*)>/g)].map((m) => m[1]);
    expect(scripts).toEqual([expect.stringMatching(/^ src="\/docs\/assets\/redoc\.standalone\.js\?v=[0-9a-f]{12}"$/), expect.stringMatching(/^ src="\/docs\/assets\/docs\.js\?v=[0-9a-f]{12}"$/)]);
    expect(page).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)/);
    const doc = (await (await fetch(`${platform.apiUrl}/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    for (const [route, item] of Object.entries(doc.paths)) {
      for (const method of Object.keys(item)) expect(page).toContain(`${method.toUpperCase()} ${route}`);
    }
    // Backticks of the descriptions become code, never literal.
    expect(page).toContain('<code>Idempotency-Key</code>');
  });

  it('serves the renderer files with long caching, and nothing else under its folder', async () => {
    for (const name of ['redoc.standalone.js', 'docs.js']) {
      const res = await fetch(`${platform.apiUrl}/docs/assets/${name}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      expect(res.headers.get('cache-control')).toContain('immutable');
    }
    const bundle = await fetch(`${platform.apiUrl}/docs/assets/redoc.standalone.js`).then((r) => r.text());
    expect(bundle.length).toBeGreaterThan(500_000);
    // The bundle makes no request to another origin (its badge image pointed at a CDN).
    expect(bundle).not.toContain('cdn.redoc.ly');
    for (const name of ['../package.json', 'redoc.standalone.js.map', '%2e%2e%2fpackage.json']) {
      expect((await fetch(`${platform.apiUrl}/docs/assets/${name}`)).status).toBe(404);
    }
  });
});
