import { periodic } from '../../../src/infra/periodic';

/** A tick whose runs end only when the test says so. */
function heldTick() {
  const held = { runs: 0, finish: () => undefined as void };
  const tick = () => {
    held.runs++;
    return new Promise<void>((resolve) => (held.finish = resolve));
  };
  return { held, tick };
}

/** Ends the run under way: the next beat (100 ms) makes run 2, which ends before the loop stops. */
async function secondRunOnNextBeat(held: ReturnType<typeof heldTick>['held'], loop: ReturnType<typeof periodic>) {
  held.finish();
  await jest.advanceTimersByTimeAsync(100);
  expect(held.runs).toBe(2);
  held.finish();
  await loop.stop();
}

describe('periodic', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('runs one tick at a time: beats that come while a run is under way are skipped', async () => {
    const { held, tick } = heldTick();
    const loop = periodic(tick, 100, () => undefined);
    await jest.advanceTimersByTimeAsync(350);
    expect(held.runs).toBe(1);
    await secondRunOnNextBeat(held, loop);
  });

  it('hands a failed run to onError and goes on', async () => {
    const errors: unknown[] = [];
    let runs = 0;
    const loop = periodic(
      async () => {
        runs++;
        throw new Error(`run ${runs}`);
      },
      100,
      (err) => errors.push(err),
    );
    await jest.advanceTimersByTimeAsync(200);
    expect([runs, errors.length]).toEqual([2, 2]);
    await loop.stop();
  });

  it('stops: no run after, and stop waits for the one under way', async () => {
    const { held, tick } = heldTick();
    const loop = periodic(tick, 100, () => undefined);
    await jest.advanceTimersByTimeAsync(100);
    let stopped = false;
    const stopping = loop.stop().then(() => (stopped = true));
    await jest.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    held.finish();
    await stopping;
    await jest.advanceTimersByTimeAsync(500);
    expect(held.runs).toBe(1);
  });

  it('runs at once when asked to, then every interval, still one run at a time', async () => {
    const { held, tick } = heldTick();
    const loop = periodic(tick, 100, () => undefined, { now: true });
    expect(held.runs).toBe(1);
    await jest.advanceTimersByTimeAsync(100);
    expect(held.runs).toBe(1);
    await secondRunOnNextBeat(held, loop);
  });
});
