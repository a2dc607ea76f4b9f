import { performance } from 'node:perf_hooks';
import { startEmbeddedPlatform } from './embedded-platform';
async function main() {
  const e = await startEmbeddedPlatform({ roles: { api: true, worker: false }, logLevel: 'silent' });
  const slots = e.platform.db.collection<any>('limit_slots');
  let base = 0;
  for (const size of [1000, 20000, 60000]) {
    while (base < size) { await slots.insertMany(Array.from({ length: 1000 }, (_, j) => ({ _id: `f#${base + j}`, scope: `f${(base + j) % 100}`, k: base + j, expires_at: new Date(Date.now() + 1e9) })), { ordered: false }); base += 1000; }
    const t0 = performance.now();
    for (let i = 0; i < 200; i++) await slots.findOne({ _id: `f#${(i * 37) % size}` });
    const t1 = performance.now();
    for (let i = 0; i < 20; i++) await slots.insertMany(Array.from({ length: 32 }, (_, j) => ({ _id: `g${size}#${i}-${j}`, scope: 'g', k: j, expires_at: new Date() })), { ordered: false });
    const t2 = performance.now();
    console.log(`size ${size}: findOne by _id ${((t1 - t0) / 200).toFixed(2)} ms; insertMany(32) ${((t2 - t1) / 20).toFixed(2)} ms`);
  }
  await e.stop();
}
main().catch((err) => { console.error(err); process.exit(1); });
