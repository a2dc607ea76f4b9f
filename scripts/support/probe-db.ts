import { performance } from 'node:perf_hooks';
import { startEmbeddedPlatform } from './embedded-platform';
async function main() {
  const e = await startEmbeddedPlatform({ roles: { api: true, worker: false } });
  const db = e.platform.db;
  const col = db.collection<any>('probe_plain');
  const slots = db.collection<any>('limit_slots');
  const time = async (label: string, n: number, conc: number, fn: (i: number) => Promise<unknown>) => {
    const t0 = performance.now();
    let i = 0;
    await Promise.all(Array.from({ length: conc }, async () => { while (i < n) await fn(i++); }));
    const dt = performance.now() - t0;
    console.log(`${label}: ${n} ops, conc ${conc}: ${(n / dt * 1000).toFixed(0)} ops/s, ${(dt / n * conc).toFixed(2)} ms/op`);
  };
  await time('insert plain seq', 300, 1, (i) => col.insertOne({ _id: `a${i}`, x: i }));
  await time('insert plain c32', 1000, 32, (i) => col.insertOne({ _id: `b${i}`, x: i }));
  await time('insert slots seq', 300, 1, (i) => slots.insertOne({ _id: `s#${i}`, scope: 's', k: i, expires_at: new Date(Date.now() + 1e9) }));
  await time('insert slots c32', 1000, 32, (i) => slots.insertOne({ _id: `t${i % 50}#${i}`, scope: `t${i % 50}`, k: i, expires_at: new Date(Date.now() + 1e9) }));
  await time('insertMany slots 32/batch c4', 2000, 4, async (i) => { await slots.insertMany(Array.from({ length: 32 }, (_, j) => ({ _id: `m#${i}-${j}`, scope: 'm', k: i * 100 + j, expires_at: new Date() })), { ordered: false }); });
  await time('find one by _id seq', 300, 1, (i) => col.findOne({ _id: `a${i}` }));
  await time('find one by _id c32', 2000, 32, (i) => col.findOne({ _id: `a${i % 300}` }));
  await time('endpoints list c32', 1000, 32, () => db.collection('endpoints').find({ account_id: 'x' }).sort({ created_at: -1 }).limit(21).toArray());
  await time('ping c32', 2000, 32, () => db.command({ ping: 1 }));
  await e.stop();
}
main().catch((err) => { console.error(err); process.exit(1); });
