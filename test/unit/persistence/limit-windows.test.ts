import type { Db } from 'mongodb';
import { LimitWindows } from '../../../src/persistence/limit-windows';

/** Windows 1..`length` of bucket `b`, its head hint at `hint` (null: none), counting the window lookups. */
function store(length: number, hint: number | null) {
  const reads: number[] = [];
  const window = (seq: number) => ({ _id: `b#${seq}`, bucket: 'b', seq, start: new Date(seq * 1_000), end: new Date(seq * 1_000 + 500) });
  const windows = {
    findOne: async ({ _id }: { _id: string }) => {
      const seq = Number(_id.slice('b#'.length));
      reads.push(seq);
      return seq >= 1 && seq <= length ? window(seq) : null;
    },
  };
  const heads = { findOne: async () => (hint === null ? null : { _id: 'b', seq: hint }) };
  const db = { collection: (name: string) => (name === 'limit_windows' ? windows : heads) } as unknown as Db;
  return { windows: new LimitWindows(db), reads };
}

describe('limit windows: finding the latest window by _id lookups', () => {
  it('probes one by one from the head hint', async () => {
    const { windows, reads } = store(7, 5);
    expect(await windows.latestWindow('b')).toEqual({ seq: 7, start: new Date(7_000), end: new Date(7_500) });
    expect(reads).toEqual([5, 6, 7, 8]);
  });

  it('a bucket with no window has no latest', async () => {
    const { windows, reads } = store(0, null);
    expect(await windows.latestWindow('b')).toBeNull();
    expect(reads).toEqual([1]);
  });
});
