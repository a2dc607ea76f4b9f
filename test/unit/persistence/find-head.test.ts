import { findHeadGalloping } from '../../../src/persistence/store-primitives';

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
