import { AttemptHandOffs, RunEnded } from '../../../activities/attempt-hand-off';
import type { AttemptOutcome } from '../../../activities/delivery-activities';

const succeeded: AttemptOutcome = { status: 'succeeded', nextDelayMs: null, statusCode: 200 };
/** The signaller of tests that only keep attempts for collection (workflows started before `collect-by-signal`). */
const unused = async () => undefined;

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
    const handOffs = new AttemptHandOffs('q/hand-off/1', unused);
    handOffs.keep('delivery-1-ep#r1a1', Promise.resolve(succeeded));
    await expect(handOffs.take('delivery-1-ep#r1a1')).resolves.toEqual(succeeded);
    expect(handOffs.take('delivery-1-ep#r1a1')).toBeUndefined();
  });

  it('are not here for a key this process never kept (its workflow makes the attempt elsewhere)', () => {
    expect(new AttemptHandOffs('q', unused).take('delivery-2-ep#r1a1')).toBeUndefined();
  });

  it('a graceful stop waits for every POST still in flight, failed ones included', async () => {
    const handOffs = new AttemptHandOffs('q', unused);
    let finish!: (o: AttemptOutcome) => void;
    handOffs.keep('a', new Promise((resolve) => (finish = resolve)));
    handOffs.keep('b', Promise.reject(new Error('the store is down')));
    const settled = await stopAcrossPost(handOffs, finish);
    expect(settled).toBe(true);
  });

  it('a stop waits also for a POST its workflow is already collecting, and counts it as in flight until it ends', async () => {
    const handOffs = new AttemptHandOffs('q', unused);
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
      const handOffs = new AttemptHandOffs('q', unused);
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

describe('attempts handed off by their local budget, reported by signal (collect-by-signal)', () => {
  const run = { workflowId: 'delivery-1-ep', runId: 'run-1' };
  const ids = { round: 1, attempt: 1 };

  /** A signaller that records what it was asked, failing the first `failures` calls with `error`. */
  function signaller(failures = 0, error: () => Error = () => new Error('unavailable')) {
    const sent: unknown[] = [];
    let calls = 0;
    const signal = async (to: unknown, collected: unknown, by: unknown) => {
      calls++;
      if (calls <= failures) throw error();
      sent.push({ to, collected, by });
    };
    return { signal, sent, calls: () => calls };
  }
  const noWait = async () => undefined;

  it('signal the outcome to their workflow run once the POST has ended and been recorded', async () => {
    const { signal, sent } = signaller();
    const handOffs = new AttemptHandOffs('q', signal, noWait);
    let finish!: (o: AttemptOutcome) => void;
    handOffs.report(run, ids, new Promise((resolve) => (finish = resolve)));
    await new Promise((r) => setImmediate(r));
    expect(sent).toEqual([]);
    finish(succeeded);
    await handOffs.settled();
    expect(sent).toEqual([{ to: run, collected: { round: 1, attempt: 1, outcome: succeeded }, by: 'signal' }]);
  });

  it('tell a run by update when its workflow asked for one (deliveryWorkflowV2)', async () => {
    const { signal, sent } = signaller();
    const handOffs = new AttemptHandOffs('q', signal, noWait);
    handOffs.report(run, ids, Promise.resolve(succeeded), 'update');
    await handOffs.settled();
    expect(sent).toEqual([{ to: run, collected: { round: 1, attempt: 1, outcome: succeeded }, by: 'update' }]);
  });

  it('signal no outcome when the attempt failed before its record, so the workflow makes it again at once', async () => {
    const { signal, sent } = signaller();
    const handOffs = new AttemptHandOffs('q', signal, noWait);
    handOffs.report(run, ids, Promise.reject(new Error('the store is down')));
    await handOffs.settled();
    expect(sent).toEqual([{ to: run, collected: { round: 1, attempt: 1 }, by: 'signal' }]);
  });

  it('send a signal the server did not take again, until it is taken', async () => {
    const { signal, sent, calls } = signaller(3);
    const handOffs = new AttemptHandOffs('q', signal, noWait);
    handOffs.report(run, ids, Promise.resolve(succeeded));
    await handOffs.settled();
    expect(calls()).toBe(4);
    expect(sent).toHaveLength(1);
  });

  it('stop signalling a run that has ended', async () => {
    const { signal, sent, calls } = signaller(Infinity, () => new RunEnded('gone'));
    const handOffs = new AttemptHandOffs('q', signal, noWait);
    handOffs.report(run, ids, Promise.resolve(succeeded));
    await handOffs.settled();
    expect([calls(), sent.length]).toEqual([1, 0]);
  });

  it('give up once the workflow has stopped waiting (45 s after the POST ended)', async () => {
    let now = 0;
    const { signal, calls } = signaller(Infinity);
    const handOffs = new AttemptHandOffs('q', signal, async (ms) => void (now += ms), () => now);
    handOffs.report(run, ids, Promise.resolve(succeeded));
    await handOffs.settled();
    expect(now).toBeLessThanOrEqual(45_000);
    expect(calls()).toBeGreaterThan(1);
  });

  it('a graceful stop waits for the signal too, and counts the attempt in flight until it is sent', async () => {
    let release!: () => void;
    const handOffs = new AttemptHandOffs('q', () => new Promise<void>((resolve) => (release = resolve)), noWait);
    handOffs.report(run, ids, Promise.resolve(succeeded));
    let settled = false;
    const stop = handOffs.settled().then(() => (settled = true));
    await new Promise((r) => setImmediate(r));
    expect([settled, handOffs.inFlight]).toEqual([false, 1]);
    release();
    await stop;
    expect(handOffs.inFlight).toBe(0);
  });
});
