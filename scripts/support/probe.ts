import { startEmbeddedPlatform } from './embedded-platform';
async function main() {
  const e = await startEmbeddedPlatform({ roles: { api: true, worker: false } });
  const acct = await e.platform.services.accounts.createAccount('p@example.test', 'free');
  const k = await e.platform.services.accounts.createKey(acct.id, 'weh', 'x');
  const h = { Authorization: `Bearer ${k.key}` };
  const show = async (label: string, p: string, init: RequestInit = {}) => {
    const r = await fetch(e.apiUrl + p, init);
    const hh: Record<string, string> = {};
    r.headers.forEach((v, n) => { if (/ratelimit|quota|allow|retry/i.test(n)) hh[n] = v; });
    console.log(label, r.status, JSON.stringify(hh), (await r.text()).slice(0, 200));
  };
  await show('ok', '/api/v1/webhooks/endpoints', { headers: h });
  await show('upper no auth', '/API/V1/webhooks/endpoints');
  await show('upper2 no auth', '/Api/v1/webhooks/endpoints');
  await show('upper seg w/ sec key', '/api/v1/WEBHOOKS/endpoints');
  await show('trailing slash', '/api/v1/webhooks/endpoints/');
  await show('double slash', '//api/v1/webhooks/endpoints');
  await show('badjson auth', '/api/v1/webhooks/endpoints', { method: 'POST', headers: { ...h, 'content-type': 'application/json' }, body: '{' });
  await show('badjson noauth', '/api/v1/webhooks/endpoints', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' });
  await show('405', '/api/v1/webhooks/endpoints', { method: 'PUT', headers: h });
  await show('404', '/api/v1/webhooks/nope', { headers: h });
  await show('404 root', '/nope');
  await show('bad uri', '/api/v1/webhooks/endpoints/%E0%A4%A', { headers: h });
  await e.stop();
}
main().catch((e) => { console.error(e); process.exit(1); });
