import { findHeadGalloping, findHeadPastGaps } from '../../../src/persistence/store-primitives';

/** A sequence of `length` contiguous members, counting the `_id` lookups made. */
function sequence(length: number) {
  const reads: number[] = [];
  const read = async (n: number) => {
    reads.push(n);
    return n >= 1 && n <= length ? { n } : null;
  };
  return { read, reads };
}

describe('find-head: finding the last member of a log by _id lookups', () => {
  it('an empty sequence has no last member', async () => {
    expect(await findHeadGalloping(sequence(0).read, { n: 0, doc: null })).toEqual({ n: 0, doc: null });
  });

  it.each([1, 2, 3, 100, 1_000, 4_097])('gallops then bisects to the last of %i members in O(log n) lookups', async (length) => {
    const { read, reads } = sequence(length);
    expect(await findHeadGalloping(read, { n: 0, doc: null })).toEqual({ n: length, doc: { n: length } });
    expect(reads.length).toBeLessThanOrEqual(2 * Math.ceil(Math.log2(length + 1)) + 2);
  });

  it('keeps the known member when nothing follows it', async () => {
    const { read } = sequence(3);
    expect(await findHeadGalloping(read, { n: 3, doc: { n: 3 } })).toEqual({ n: 3, doc: { n: 3 } });
  });
});

/**
 * Claimed ids `present`, answering each lookup a turn of the event loop later; `rounds` is the longest chain of lookups
 * each made after the one before it answered: the round trips a search waits for one after another.
 */
function claims(present: (n: number) => boolean) {
  let answered = 0;
  let rounds = 0;
  let lookups = 0;
  const read = (n: number) => {
    lookups++;
    const depth = answered + 1;
    rounds = Math.max(rounds, depth);
    return new Promise<{ n: number } | null>((resolve) =>
      setImmediate(() => {
        answered = Math.max(answered, depth);
        resolve(present(n) ? { n } : null);
      }),
    );
  };
  return { read, rounds: () => rounds, lookups: () => lookups };
}

describe('find-head: the head of claimed ids past one gap', () => {
  it('a head a few ids on is found in one round of lookups read at once', async () => {
    const log = claims((n) => n >= 1 && n <= 105);
    expect(await findHeadPastGaps(log.read, 100, 8)).toBe(105);
    expect(log.rounds()).toBe(1);
  });

  it('without reads at once, the same head takes a gallop of lookups one after another', async () => {
    const log = claims((n) => n >= 1 && n <= 105);
    expect(await findHeadPastGaps(log.read, 100)).toBe(105);
    expect(log.rounds()).toBeGreaterThan(3);
  });

  it('looks past one missing id, not two', async () => {
    const gap = (n: number) => n !== 103 && n >= 1 && n <= 106;
    expect(await findHeadPastGaps(claims(gap).read, 100, 8)).toBe(106);
    expect(await findHeadPastGaps(claims(gap).read, 100)).toBe(106);
    const twoMissing = (n: number) => n !== 103 && n !== 104 && n >= 1 && n <= 106;
    expect(await findHeadPastGaps(claims(twoMissing).read, 100, 8)).toBe(102);
    expect(await findHeadPastGaps(claims(twoMissing).read, 100)).toBe(102);
  });

  it.each([7, 8, 9, 1_000])('a head %i ids on beyond the reads at once is galloped to', async (lead) => {
    const log = claims((n) => n >= 1 && n <= 100 + lead);
    expect(await findHeadPastGaps(log.read, 100, 8)).toBe(100 + lead);
    expect(log.lookups()).toBeLessThanOrEqual(8 + 2 * Math.ceil(Math.log2(lead + 1)) + 3);
  });

  it('nothing above the start: the start is the head', async () => {
    expect(await findHeadPastGaps(claims(() => false).read, 0, 8)).toBe(0);
    expect(await findHeadPastGaps(claims(() => false).read, 0)).toBe(0);
  });
});
