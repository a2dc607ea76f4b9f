import { AttemptHandOffs, RunEnded } from '../../../activities/attempt-hand-off';
import type { AttemptOutcome } from '../../../activities/delivery-activities';

const succeeded: AttemptOutcome = { status: 'succeeded', nextDelayMs: null, statusCode: 200 };

describe('attempts handed off by their local budget', () => {
  const run = { workflowId: 'delivery-1-ep', runId: 'run-1' };
  const ids = { round: 1, attempt: 1 };

  /** A reporter that records what it was asked, failing the first `failures` calls with `error`. */
  function reporter(failures = 0, error: () => Error = () => new Error('unavailable')) {
    const sent: unknown[] = [];
    const deadlines: number[] = [];
    let calls = 0;
    const report = async (to: unknown, reported: unknown, deadline: number) => {
      calls++;
      deadlines.push(deadline);
      if (calls <= failures) throw error();
      sent.push({ to, reported });
    };
    return { report, sent, deadlines, calls: () => calls };
  }
  const noWait = async () => undefined;

  it('report the outcome to their workflow run once the POST has ended and been recorded', async () => {
    const { report, sent } = reporter();
    const handOffs = new AttemptHandOffs(report, noWait);
    let finish!: (o: AttemptOutcome) => void;
    handOffs.report(run, ids, new Promise((resolve) => (finish = resolve)));
    await new Promise((r) => setImmediate(r));
    expect(sent).toEqual([]);
    finish(succeeded);
    await handOffs.settled();
    expect(sent).toEqual([{ to: run, reported: { round: 1, attempt: 1, outcome: succeeded } }]);
  });

  it('report no outcome when the attempt failed before its record, so the workflow makes it again at once', async () => {
    const { report, sent } = reporter();
    const handOffs = new AttemptHandOffs(report, noWait);
    handOffs.report(run, ids, Promise.reject(new Error('the store is down')));
    await handOffs.settled();
    expect(sent).toEqual([{ to: run, reported: { round: 1, attempt: 1 } }]);
  });

  it('send a report the server did not take again, until it is taken', async () => {
    const { report, sent, calls } = reporter(3);
    const handOffs = new AttemptHandOffs(report, noWait);
    handOffs.report(run, ids, Promise.resolve(succeeded));
    await handOffs.settled();
    expect(calls()).toBe(4);
    expect(sent).toHaveLength(1);
  });

  it('stop reporting to a run that has ended', async () => {
    const { report, sent, calls } = reporter(Infinity, () => new RunEnded('gone'));
    const handOffs = new AttemptHandOffs(report, noWait);
    handOffs.report(run, ids, Promise.resolve(succeeded));
    await handOffs.settled();
    expect([calls(), sent.length]).toEqual([1, 0]);
  });

  it('give up once the workflow has stopped waiting (45 s after the POST ended)', async () => {
    let now = 0;
    const { report, calls } = reporter(Infinity);
    const handOffs = new AttemptHandOffs(report, async (ms) => void (now += ms), () => now);
    handOffs.report(run, ids, Promise.resolve(succeeded));
    await handOffs.settled();
    expect(now).toBeLessThanOrEqual(45_000);
    expect(calls()).toBeGreaterThan(1);
  });

  it('bound every report by that time, so that one the server never answers does not hold a graceful stop', async () => {
    let now = 1_000;
    const { report, deadlines } = reporter(2);
    const handOffs = new AttemptHandOffs(report, async (ms) => void (now += ms), () => now);
    handOffs.report(run, ids, Promise.resolve(succeeded));
    await handOffs.settled();
    expect(deadlines).toEqual([46_000, 46_000, 46_000]);
  });

  it('a graceful stop waits for every POST still in flight, failed ones included', async () => {
    const handOffs = new AttemptHandOffs(async () => undefined, noWait);
    let finish!: (o: AttemptOutcome) => void;
    handOffs.report(run, ids, new Promise((resolve) => (finish = resolve)));
    handOffs.report(run, { round: 1, attempt: 2 }, Promise.reject(new Error('the store is down')));
    let settled = false;
    const stop = handOffs.settled().then(() => (settled = true));
    await new Promise((r) => setImmediate(r));
    expect(settled).toBe(false);
    finish(succeeded);
    await stop;
    expect(handOffs.inFlight).toBe(0);
  });

  it('a graceful stop waits for the report too, and counts the attempt in flight until it is sent', async () => {
    let release!: () => void;
    const handOffs = new AttemptHandOffs(() => new Promise<void>((resolve) => (release = resolve)), noWait);
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
