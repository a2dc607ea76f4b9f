import { AttemptHolds } from '../../../activities/attempt-holds';
import { metricsRegistry } from '../../../src/infra/metrics';

const heldGauge = async () => (await metricsRegistry.getSingleMetric('webhook_first_attempts_held')!.get()).values[0]?.value;

describe('room to hold slow first attempts in their task', () => {
  it('gives places up to its most, then none', async () => {
    const holds = new AttemptHolds(2);
    expect(holds.hold()).not.toBeNull();
    expect(holds.hold()).not.toBeNull();
    expect(holds.hold()).toBeNull();
    expect(await heldGauge()).toBe(2);
  });

  it('takes a place back once, however often it is released', async () => {
    const holds = new AttemptHolds(2);
    const first = holds.hold()!;
    holds.hold();
    first.release();
    first.release();
    expect(await heldGauge()).toBe(1);
    expect(holds.hold()).not.toBeNull();
    expect(holds.hold()).toBeNull();
  });

  it('ends every hold when a stop begins, and gives no place after it', async () => {
    const holds = new AttemptHolds(2);
    const hold = holds.hold()!;
    let ended = false;
    void hold.ended.then(() => (ended = true));
    holds.stop();
    await Promise.resolve();
    expect(ended).toBe(true);
    expect(holds.hold()).toBeNull();
  });

  it('shows how many are held (webhook_first_attempts_held)', async () => {
    const holds = new AttemptHolds(3);
    const first = holds.hold()!;
    holds.hold();
    expect(await heldGauge()).toBe(2);
    first.release();
    expect(await heldGauge()).toBe(1);
  });
});
