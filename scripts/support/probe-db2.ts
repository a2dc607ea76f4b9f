import { performance } from 'node:perf_hooks';
import { startEmbeddedPlatform } from './embedded-platform';
async function main() {
  const e = await startEmbeddedPlatform({ roles: { api: true, worker: false }, logLevel: 'silent' });
  const db = e.platform.db;
  const slots = db.collection<any>('limit_slots');
  const time = async (label: string, n: number, conc: number, fn: (i: number) => Promise<unknown>) => {
    const t0 = performance.now();
    let i = 0;
    await Promise.all(Array.from({ length: conc }, async () => { while (i < n) await fn(i++); }));
    const dt = performance.now() - t0;
    console.log(`${label}: ${(n / dt * 1000).toFixed(0)} ops/s`);
  };
  let base = 0;
  for (const size of [0, 5000, 20000, 50000]) {
    while (base < size) { await slots.insertMany(Array.from({ length: 1000 }, (_, j) => ({ _id: `fill#${base + j}`, scope: `fill${(base + j) % 100}`, k: base + j, expires_at: new Date(Date.now() + 1e9) })), { ordered: false }); base += 1000; }
    await time(`size ${size}: insert c32`, 1000, 32, (i) => slots.insertOne({ _id: `x${size}#${i}`, scope: `x${size}`, k: i, expires_at: new Date(Date.now() + 1e9) }));
    await time(`size ${size}: highestSlot c8`, 200, 8, () => slots.find({ scope: 'fill7' }, { projection: { k: 1 } }).sort({ k: -1 }).limit(1).next());
  }
  const explain = await slots.find({ scope: 'fill7' }).sort({ k: -1 }).limit(1).explain();
  console.log(JSON.stringify(explain).slice(0, 1500));
  await e.stop();
}
main().catch((err) => { console.error(err); process.exit(1); });
