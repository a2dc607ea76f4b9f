import { startEmbeddedPlatform } from './embedded-platform';
async function main() {
  const e = await startEmbeddedPlatform({ roles: { api: true, worker: false }, logLevel: 'silent' });
  const p = e.platform;
  const keys: string[] = [];
  for (let i = 0; i < 150; i++) { const a = await p.services.accounts.createAccount(`p${i}@x.test`, 'enterprise'); keys.push((await p.services.accounts.createKey(a.id, 'weh', 'x')).key); }
  const r = p.repositories as any;
  const calls: string[] = [];
  for (const m of ['latestWindow', 'createWindow']) { const o = r.limitWindows[m].bind(r.limitWindows); r.limitWindows[m] = async (...args: any[]) => { const res = await o(...args); calls.push(`${m} ${args[0].slice(-6)} ${JSON.stringify(args[1]?.seq ?? '')} -> ${JSON.stringify(res)}`); return res; }; }
  let i = 0;
  await Promise.all(Array.from({ length: 32 }, async () => { while (i < 3000) { const k = keys[i++ % keys.length]; await fetch(`${e.apiUrl}/api/v1/webhooks/endpoints`, { headers: { authorization: `Bearer ${k}` } }).then((r) => r.text()); } }));
  console.log(calls.length, calls.filter(c=>c.startsWith("create")).length); console.log(calls.filter(c=>!c.endsWith("-> null") && !c.endsWith("-> true")).slice(0, 40).join('\n'));
  await e.stop();
}
main().catch((err) => { console.error(err); process.exit(1); });
