import { MongoBulkWriteError } from 'mongodb';
import { startEmbeddedPlatform } from './embedded-platform';
async function main() {
  const e = await startEmbeddedPlatform({ roles: { api: true, worker: false }, logLevel: 'silent' });
  const slots = e.platform.db.collection<any>('limit_slots');
  await slots.insertMany(Array.from({ length: 2000 }, (_, j) => ({ _id: `s${j % 20}#${j}`, scope: `s${j % 20}`, k: j, expires_at: new Date() })));
  const show = async (label: string, f: any) => { const ex: any = await slots.find(f).explain(); console.log(label, JSON.stringify(ex.queryPlanner), 'pushdown', ex.filterPushdown); };
  await show('_id eq', { _id: 's1#1' });
  await show('_id in', { _id: { $in: ['s1#1', 's1#21'] } });
  await show('_id range', { _id: { $gte: 's1#', $lt: 's1$' } });
  await show('_id regex', { _id: { $regex: '^s1#' } });
  // ordered:false with duplicates
  try {
    const r = await slots.insertMany([{ _id: 'n#1', scope: 'n', k: 1 }, { _id: 's1#1', scope: 's1', k: 1 }, { _id: 'n#2', scope: 'n', k: 2 }, { _id: 'n#1', scope: 'n', k: 1 }], { ordered: false });
    console.log('no error', r.insertedCount);
  } catch (err) {
    if (err instanceof MongoBulkWriteError) {
      const we = Array.isArray(err.writeErrors) ? err.writeErrors : [err.writeErrors];
      console.log('bulk error inserted', err.insertedCount, 'writeErrors', we.map((w: any) => [w.index, w.code]));
    } else console.log('other error', err);
  }
  console.log('n docs', await slots.countDocuments({ scope: 'n' }));
  await e.stop();
}
main().catch((err) => { console.error(err); process.exit(1); });
