import { execFile } from 'node:child_process';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { startEmbeddedPlatform } from './embedded-platform';

const stats = new Map<string, { n: number; total: number; max: number }>();
function wrap(obj: any, name: string, label: string) {
  const orig = obj[name].bind(obj);
  obj[name] = async (...args: any[]) => {
    const t0 = performance.now();
    try { return await orig(...args); } finally {
      const dt = performance.now() - t0;
      const s = stats.get(label) ?? { n: 0, total: 0, max: 0 };
      s.n++; s.total += dt; s.max = Math.max(s.max, dt); stats.set(label, s);
    }
  };
}
async function main() {
  const e = await startEmbeddedPlatform({ roles: { api: true, worker: false } });
  const p = e.platform;
  const keys: string[] = [];
  for (let i = 0; i < Number(process.env.N ?? 150); i++) {
    const a = await p.services.accounts.createAccount(`p${i}@x.test`, 'enterprise');
    keys.push((await p.services.accounts.createKey(a.id, 'weh', 'x')).key);
  }
  const r = p.repositories as any;
  for (const m of ['claimSlot', 'releaseSlot', 'highestSlot', 'takenSlots']) wrap(r.limitSlots, m, `slots.${m}`);
  for (const m of ['latestWindow', 'createWindow']) wrap(r.limitWindows, m, `windows.${m}`);
  wrap(r.apiKeys, 'findByHash', 'apiKeys.findByHash');
  wrap(r.accounts, 'findById', 'accounts.findById');
  wrap(r.endpoints, 'list', 'endpoints.list');
  wrap(p.services.limiter, 'admit', 'limiter.admit');
  wrap(p.services.authenticator, 'authenticate', 'authenticate');
  const job = { url: e.apiUrl, path: process.env.P ?? '/api/v1/webhooks/endpoints', keys, connections: Number(process.env.C ?? 32), duration: Number(process.env.D ?? 10), rate: 0 };
  const out: string = await new Promise((resolve, reject) => execFile(path.resolve('node_modules/.bin/tsx'), ['bench/load-generator.ts', JSON.stringify(job)], (err, so, se) => (err ? reject(new Error(se)) : resolve(so))));
  const res = JSON.parse(out.trim());
  console.log('rps', res.rps, 'latency', res.latency, 'codes', res.statusCodes);
  const lw = (p.services.limiter as any).windows; console.log('windows cached', lw.size, [...lw.values()].slice(0,2));
  for (const [k, s] of [...stats].sort()) console.log(k.padEnd(24), 'n', String(s.n).padStart(7), 'per call', (s.n / res.requests).toFixed(2), 'avg ms', (s.total / s.n).toFixed(2), 'max', s.max.toFixed(1));
  await e.stop();
}
main().catch((err) => { console.error(err); process.exit(1); });
