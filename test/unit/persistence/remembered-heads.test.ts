import { RememberedHeads } from '../../../src/persistence/store-primitives';

/** A head search that ends only when the test says so, counting how often it was started. */
function heldSearch() {
  const held = { started: 0, finish: (_n: number) => undefined as void };
  const search = () => {
    held.started++;
    return new Promise<{ n: number }>((resolve) => (held.finish = (n) => resolve({ n })));
  };
  return { held, search };
}

describe('remembered heads', () => {
  it('a head only rises: a lower one is not remembered, and a search starts from the later of the remembered and a known one', () => {
    const heads = new RememberedHeads<{ n: number }>(10);
    heads.raise('s', { n: 5 });
    heads.raise('s', { n: 3 });
    expect(heads.get('s')).toEqual({ n: 5 });
    expect(heads.later('s', { n: 4 })).toEqual({ n: 5 });
    expect(heads.later('s', { n: 9 })).toEqual({ n: 9 });
    expect(heads.later('other', null)).toBeNull();
  });

  it('past `kept` scopes the oldest is forgotten', () => {
    const heads = new RememberedHeads<{ n: number }>(2);
    for (const scope of ['a', 'b', 'c']) heads.raise(scope, { n: 1 });
    expect([heads.get('a'), heads.get('b'), heads.get('c')]).toEqual([null, { n: 1 }, { n: 1 }]);
  });

  it('callers that come while a head is learned share its search', async () => {
    const heads = new RememberedHeads<{ n: number }>(10);
    const { held, search } = heldSearch();
    const callers = [heads.trusted('s', search), heads.trusted('s', search)];
    held.finish(7);
    expect(await Promise.all(callers)).toEqual([{ n: 7 }, { n: 7 }]);
    expect(held.started).toBe(1);
  });

  it('a search that must not be joined starts anew, and later callers share it', async () => {
    const heads = new RememberedHeads<{ n: number }>(10);
    const { held, search } = heldSearch();
    void heads.learn('s', search);
    void heads.learn('s', search, false);
    void heads.learn('s', search);
    expect(held.started).toBe(2);
  });

  it('a learned head is trusted until it is older than the trust, then learned again', async () => {
    let now = 0;
    const heads = new RememberedHeads<{ n: number }>(10, { ms: 1_000, now: () => now });
    let searches = 0;
    const search = async () => ({ n: ++searches * 10 });
    expect(await heads.trusted('s', search)).toEqual({ n: 10 });
    now = 1_000;
    expect(await heads.trusted('s', search)).toEqual({ n: 10 });
    now = 1_001;
    expect(await heads.trusted('s', search)).toEqual({ n: 20 });
    expect(searches).toBe(2);
  });

  it('a head raised while a search ran is kept over the lower one the search found', async () => {
    const heads = new RememberedHeads<{ n: number }>(10);
    const { held, search } = heldSearch();
    heads.raise('s', { n: 4 });
    const learning = heads.learn('s', search);
    heads.raise('s', { n: 9 });
    held.finish(6);
    expect(await learning).toEqual({ n: 9 });
  });

  it('concurrent callers advancing after one search get distinct numbers past the head', async () => {
    const heads = new RememberedHeads<{ n: number }>(10);
    const { held, search } = heldSearch();
    const next = async () => heads.advance('s', await heads.trusted('s', search));
    const numbers = Array.from({ length: 5 }, next);
    held.finish(41);
    expect((await Promise.all(numbers)).sort()).toEqual([42, 43, 44, 45, 46]);
    expect(heads.get('s')).toEqual({ n: 46 });
  });
});
