import type { Db } from 'mongodb';
import { tallyLog } from '../../support/store-primitive-ops';
import { runWritersTogether } from '../../support/store-writers';
import { openTestDb } from '../../support/test-db';

/** Read what changed since a position, on the real embedded store. */
describe('store primitive: read what changed since a position', () => {
  let store: Awaited<ReturnType<typeof openTestDb>>;
  let db: Db;
  beforeAll(async () => {
    store = await openTestDb('read_since');
    db = store.db;
  });
  afterAll(() => store.close());

  it('an empty log has no head and nothing after position 0', async () => {
    const log = tallyLog(db);
    expect(await log.head('empty')).toBeNull();
    expect(await log.readSince('empty', 0)).toEqual([]);
  });

  it('reads the changes after a position, oldest first, at most `max` at a time', async () => {
    const log = tallyLog(db);
    for (let i = 1; i <= 5; i++) await log.push('five', { cum: i, by: 'w' });
    const reader = tallyLog(db);
    expect((await reader.head('five'))?.n).toBe(5);
    expect((await reader.readSince('five', 1, 2)).map((e) => e.value.cum)).toEqual([2, 3]);
    expect((await reader.readSince('five', 3)).map((e) => e.n)).toEqual([4, 5]);
  });

  it('a reader polling while two processes write sees every change exactly once, in order', async () => {
    const count = 80;
    const job = { uri: process.env.MONGODB_URI!, db: db.databaseName, op: 'push' as const, scope: 'live', count };
    const reader = tallyLog(db);
    const seen: number[] = [];
    let writing = true;
    const reading = (async () => {
      let position = 0;
      for (;;) {
        const finished = !writing; // read once more after the writers are done
        const changes = await reader.readSince('live', position, 7);
        for (const change of changes) seen.push(change.n);
        position = changes.at(-1)?.n ?? position;
        if (finished && changes.length < 7) return;
        if (changes.length === 0) await new Promise((r) => setTimeout(r, 5));
      }
    })();
    await runWritersTogether<number[]>([
      { ...job, name: 'a' },
      { ...job, name: 'b' },
    ]).finally(() => (writing = false));
    await reading;
    expect(seen).toEqual(Array.from({ length: 2 * count }, (_, i) => i + 1));
  });
});
