import { DeliveryStartWindow } from '../../../src/services/delivery-start-window';

/** A start of `workflowId`, for the account `acct` unless told. */
const slot = (workflowId: string, accountId = 'acct') => ({ workflowId, accountId });

const tick = () => new Promise((r) => setImmediate(r));

/** Resolves to true once `promise` settles, false if it is still pending after a few ticks. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  for (let i = 0; i < 5; i++) await tick();
  return done;
}

describe('DeliveryStartWindow', () => {
  it('admits starts up to its size, then holds the next one', async () => {
    const window = new DeliveryStartWindow(2, 60_000);
    expect(await settled(window.take(slot('w1')))).toBe(true);
    expect(await settled(window.take(slot('w2')))).toBe(true);
    expect(await settled(window.take(slot('w3')))).toBe(false);
    window.close();
  });

  it('a held start goes on once an earlier workflow begins its first attempt', async () => {
    const window = new DeliveryStartWindow(1, 60_000);
    await window.take(slot('w1'));
    const second = window.take(slot('w2'));
    expect(await settled(second)).toBe(false);
    window.release('w1');
    expect(await settled(second)).toBe(true);
    expect(window.occupied).toBe(1);
    window.close();
  });

  it('a freed slot goes to the start that waited longest, not to one that asks right after', async () => {
    const window = new DeliveryStartWindow(1, 60_000);
    await window.take(slot('w1'));
    const waited = window.take(slot('w2'));
    window.release('w1');
    // Asks in the same turn as the release, before the waiter has resumed.
    const barging = window.take(slot('w3'));
    expect(await settled(waited)).toBe(true);
    expect(await settled(barging)).toBe(false);
    window.release('w2');
    expect(await settled(barging)).toBe(true);
    window.close();
  });

  it('starts that wait are served in the order they came', async () => {
    const window = new DeliveryStartWindow(1, 60_000);
    await window.take(slot('w0'));
    const order: string[] = [];
    const waits = ['a', 'b', 'c'].map((id) => window.take(slot(id)).then(() => order.push(id)));
    for (const id of ['w0', 'a', 'b']) {
      window.release(id);
      await tick();
    }
    await Promise.all(waits);
    expect(order).toEqual(['a', 'b', 'c']);
    window.close();
  });

  it('an attempt of a workflow it never started frees nothing', async () => {
    const window = new DeliveryStartWindow(1, 60_000);
    await window.take(slot('w1'));
    const second = window.take(slot('w2'));
    window.release('manual-retry-elsewhere');
    expect(await settled(second)).toBe(false);
    window.close();
  });

  it('a workflow id taken again expires after the others taken before it (map order stays expiry order)', async () => {
    let now = 0;
    const window = new DeliveryStartWindow(3, 10_000, () => now);
    await window.take(slot('a'));
    now = 5_000;
    await window.take(slot('b'));
    now = 6_000;
    await window.take(slot('a')); // taken again: now expires at 16 s, after b's 15 s
    await window.take(slot('c')); // the window is full
    now = 15_500;
    expect(await settled(window.take(slot('d')))).toBe(true); // b has expired, though a (taken first) has not
    window.close();
  });

  it('a slot whose attempt never begins here frees itself after the expiry', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate'] });
    try {
      let now = 0;
      const window = new DeliveryStartWindow(1, 10_000, () => now);
      await window.take(slot('w1'));
      const second = window.take(slot('w2'));
      expect(await settled(second)).toBe(false);
      now = 9_999;
      jest.advanceTimersByTime(9_999);
      expect(await settled(second)).toBe(false);
      now = 10_000;
      jest.advanceTimersByTime(1);
      expect(await settled(second)).toBe(true);
      window.close();
    } finally {
      jest.useRealTimers();
    }
  });

  it('size 0 never holds a start, and counts them on their way all the same', async () => {
    const window = new DeliveryStartWindow(0);
    for (let i = 0; i < 1_000; i++) expect(await settled(window.take(slot(`w${i}`)))).toBe(true);
    expect(window.waitingOf('acct')).toBe(1_000);
  });

  it("counts per account its started workflows whose first attempt has not begun", async () => {
    const window = new DeliveryStartWindow(8, 60_000);
    for (const [id, account] of [['a1', 'acct_a'], ['a2', 'acct_a'], ['b1', 'acct_b']]) await window.take(slot(id, account));
    window.release('a1');
    expect([window.waitingOf('acct_a'), window.waitingOf('acct_b'), window.waitingOf('acct_c')]).toEqual([1, 1, 0]);
    window.close();
  });

  it('counts a start taken again once', async () => {
    const window = new DeliveryStartWindow(8, 60_000);
    await window.take(slot('a1'));
    await window.take(slot('a1')); // its start retried
    expect(window.waitingOf('acct')).toBe(1);
    window.close();
  });

  it('stops counting a start after its expiry: its first attempt may run on another worker', async () => {
    let now = 0;
    const window = new DeliveryStartWindow(8, 10_000, () => now);
    await window.take(slot('a1'));
    now = 5_000;
    await window.take(slot('a2'));
    now = 10_000;
    expect(window.waitingOf('acct')).toBe(1);
    window.close();
  });

  it('closing lets every held start go on', async () => {
    const window = new DeliveryStartWindow(1, 60_000);
    await window.take(slot('w1'));
    const held = [window.take(slot('w2')), window.take(slot('w3'))];
    window.close();
    expect(await settled(Promise.all(held))).toBe(true);
  });

  describe('adaptive', () => {
    const tuning = { min: 2, targetMs: 1_000, increase: 2, decrease: 0.5, intervalMs: 1_000 };

    it('shrinks once started workflows wait longer than the target for their first attempt', async () => {
      let now = 0;
      const window = new DeliveryStartWindow(8, 60_000, () => now, tuning);
      for (let i = 0; i < 8; i++) await window.take(slot(`w${i}`));
      now = 1_500; // every first attempt began 1.5 s after its start
      for (let i = 0; i < 8; i++) window.release(`w${i}`);
      expect(window.limit).toBe(4);
      for (let i = 0; i < 4; i++) await window.take(slot(`x${i}`));
      expect(await settled(window.take(slot('x4')))).toBe(false);
      window.close();
    });

    it('grows back while the wait is short and starts are held by the window', async () => {
      let now = 0;
      const window = new DeliveryStartWindow(8, 60_000, () => now, tuning);
      await window.take(slot('a'));
      now = 1_500;
      window.release('a'); // a 1.5 s wait: 8 → 4
      expect(window.limit).toBe(4);
      now = 1_600;
      for (const id of ['p', 'q', 'r', 's']) await window.take(slot(id));
      const held = window.take(slot('t')); // the window, not demand, holds this start
      expect(await settled(held)).toBe(false);
      now = 2_600;
      window.release('p'); // a 1 s wait, on target: 4 → 6
      expect(window.limit).toBe(6);
      expect(await settled(held)).toBe(true);
      window.close();
    });

    it('never grows past the configured size', async () => {
      let now = 0;
      const window = new DeliveryStartWindow(2, 60_000, () => now, tuning);
      await window.take(slot('a'));
      await window.take(slot('b'));
      const held = window.take(slot('c'));
      now = 1_000;
      window.release('a');
      window.release('b');
      expect(window.limit).toBe(2);
      await held;
      window.close();
    });
  });
});
