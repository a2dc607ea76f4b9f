import { AttemptHandOffs } from '../../../activities/attempt-hand-off';
import type { AttemptOutcome } from '../../../activities/delivery-activities';

const succeeded: AttemptOutcome = { status: 'succeeded', nextDelayMs: null, statusCode: 200 };

/**
 * A graceful stop started while a POST is in flight: still waiting a turn later, then the POST
 * ends (`finish`). Resolves once the stop has, with whether it saw itself settled.
 */
async function stopAcrossPost(handOffs: AttemptHandOffs, finish: (o: AttemptOutcome) => void): Promise<boolean> {
  let settled = false;
  const stop = handOffs.settled().then(() => (settled = true));
  await new Promise((r) => setImmediate(r));
  expect(settled).toBe(false);
  finish(succeeded);
  await stop;
  return settled;
}

describe('attempts handed off by their local budget', () => {
  it('are collected once, by their key', async () => {
    const handOffs = new AttemptHandOffs('q/hand-off/1');
    handOffs.keep('delivery-1-ep#r1a1', Promise.resolve(succeeded));
    await expect(handOffs.take('delivery-1-ep#r1a1')).resolves.toEqual(succeeded);
    expect(handOffs.take('delivery-1-ep#r1a1')).toBeUndefined();
  });

  it('are not here for a key this process never kept (its workflow makes the attempt elsewhere)', () => {
    expect(new AttemptHandOffs('q').take('delivery-2-ep#r1a1')).toBeUndefined();
  });

  it('a graceful stop waits for every POST still in flight, failed ones included', async () => {
    const handOffs = new AttemptHandOffs('q');
    let finish!: (o: AttemptOutcome) => void;
    handOffs.keep('a', new Promise((resolve) => (finish = resolve)));
    handOffs.keep('b', Promise.reject(new Error('the store is down')));
    const settled = await stopAcrossPost(handOffs, finish);
    expect(settled).toBe(true);
  });

  it('a stop waits also for a POST its workflow is already collecting, and counts it as in flight until it ends', async () => {
    const handOffs = new AttemptHandOffs('q');
    let finish!: (o: AttemptOutcome) => void;
    handOffs.keep('a', new Promise((resolve) => (finish = resolve)));
    const collecting = handOffs.take('a');
    expect(handOffs.inFlight).toBe(1);
    await stopAcrossPost(handOffs, finish);
    await expect(collecting).resolves.toEqual(succeeded);
    expect(handOffs.inFlight).toBe(0);
  });

  it('one never collected is forgotten two minutes after it ended', async () => {
    jest.useFakeTimers();
    try {
      const handOffs = new AttemptHandOffs('q');
      handOffs.keep('a', Promise.resolve(succeeded));
      await jest.advanceTimersByTimeAsync(119_000);
      expect(handOffs.size).toBe(1);
      await jest.advanceTimersByTimeAsync(1_000);
      expect(handOffs.size).toBe(0);
    } finally {
      jest.useRealTimers();
    }
  });
});
