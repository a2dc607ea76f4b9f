import { startEmbeddedPlatform } from './embedded-platform';
async function main() {
  const e = await startEmbeddedPlatform({ roles: { api: true, worker: false }, logLevel: 'silent' });
  const p = e.platform;
  const a = await p.services.accounts.createAccount(`p@x.test`, 'enterprise');
  const key = (await p.services.accounts.createKey(a.id, 'weh', 'x')).key;
  const r = p.repositories as any;
  const calls: string[] = [];
  for (const m of ['latestWindow', 'createWindow']) { const o = r.limitWindows[m].bind(r.limitWindows); r.limitWindows[m] = async (...args: any[]) => { const res = await o(...args); calls.push(`${m} ${JSON.stringify(args[1] ?? '')} -> ${JSON.stringify(res)}`); return res; }; }
  for (let i = 0; i < 5; i++) await fetch(`${e.apiUrl}/api/v1/webhooks/endpoints`, { headers: { authorization: `Bearer ${key}` } });
  await Promise.all(Array.from({ length: 5 }, () => fetch(`${e.apiUrl}/api/v1/webhooks/endpoints`, { headers: { authorization: `Bearer ${key}` } })));
  console.log(calls.join('\n'));
  console.log((p.services.limiter as any).windows);
  await e.stop();
}
main().catch((err) => { console.error(err); process.exit(1); });
