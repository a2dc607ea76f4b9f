import { FairQueue } from '../../../src/domain/flow-control/fair-queue';

const none = () => false;

function drain<T>(queue: FairQueue<T>, skip: (tenant: string) => boolean = none): string[] {
  const order: string[] = [];
  for (let next = queue.shift(skip); next; next = queue.shift(skip)) order.push(`${next.tenant}:${String(next.item)}`);
  return order;
}

describe('FairQueue', () => {
  it('serves tenants in turn, each in the order its items came', () => {
    const queue = new FairQueue<number>();
    for (let i = 1; i <= 3; i++) queue.push('big', i);
    queue.push('small', 1);
    expect(drain(queue)).toEqual(['big:1', 'small:1', 'big:2', 'big:3']);
  });

  it('serves a tenant that arrives behind a long queue within one round', () => {
    const queue = new FairQueue<number>();
    for (let i = 1; i <= 1_000; i++) queue.push('flood', i);
    queue.push('quiet', 1);
    expect([queue.shift(none)?.tenant, queue.shift(none)?.tenant]).toEqual(['flood', 'quiet']);
  });

  it('passes over a tenant it is told to skip, which keeps its items and its place', () => {
    const queue = new FairQueue<number>();
    queue.push('blocked', 1);
    queue.push('free', 1);
    queue.push('free', 2);
    const skip = (tenant: string) => tenant === 'blocked';
    expect(queue.ready(skip)).toBe(2);
    expect(drain(queue, skip)).toEqual(['free:1', 'free:2']);
    expect(queue.shift(skip)).toBeUndefined();
    expect(queue.sizeOf('blocked')).toBe(1);
    expect(queue.shift(none)?.tenant).toBe('blocked');
  });

  it('counts items and tenants waiting', () => {
    const queue = new FairQueue<number>();
    queue.push('a', 1);
    queue.push('a', 2);
    queue.push('b', 1);
    expect([queue.size, queue.tenants, queue.sizeOf('a'), queue.sizeOf('c')]).toEqual([3, 2, 2, 0]);
    queue.shift(none);
    queue.shift(none);
    queue.shift(none);
    expect([queue.size, queue.tenants]).toEqual([0, 0]);
  });

  it("tells how long a tenant's oldest item has waited", () => {
    let now = 1_000;
    const queue = new FairQueue<number>(() => now);
    queue.push('a', 1);
    now += 300;
    queue.push('a', 2);
    now += 200;
    expect(queue.oldestWaitMs('a')).toBe(500);
    queue.shift(none);
    expect(queue.oldestWaitMs('a')).toBe(200);
    expect(queue.oldestWaitMs('b')).toBe(0);
  });
});
