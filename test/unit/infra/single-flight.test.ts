import { SingleFlight } from '../../../src/infra/single-flight';

/** A run that ends only when the test says so, counting how often it was started. */
function heldRuns() {
  const held = { started: 0, finish: (_value: string) => undefined as void, fail: (_err: Error) => undefined as void };
  const run = () => {
    held.started++;
    return new Promise<string>((resolve, reject) => {
      held.finish = resolve;
      held.fail = reject;
    });
  };
  return { held, run };
}

describe('single flight', () => {
  it('shares one run between the callers of a key that come while it runs', async () => {
    const flights = new SingleFlight<string, string>();
    const { held, run } = heldRuns();
    const first = flights.run('k', run);
    const second = flights.run('k', run);
    held.finish('answer');
    expect(await Promise.all([first, second])).toEqual(['answer', 'answer']);
    expect(held.started).toBe(1);
  });

  it('runs each key apart', () => {
    const flights = new SingleFlight<string, string>();
    const { held, run } = heldRuns();
    void flights.run('a', run);
    void flights.run('b', run);
    expect(held.started).toBe(2);
  });

  it('starts a new run once the last has ended, failed or not', async () => {
    const flights = new SingleFlight<string, string>();
    const { held, run } = heldRuns();
    const failing = flights.run('k', run);
    held.fail(new Error('store down'));
    await expect(failing).rejects.toThrow('store down');
    void flights.run('k', run);
    expect(held.started).toBe(2);
  });

  it('does not join a forgotten run, which still answers its own callers', async () => {
    const flights = new SingleFlight<string, string>();
    const { held, run } = heldRuns();
    const before = flights.run('k', run);
    const finishBefore = held.finish;
    flights.forget('k');
    void flights.run('k', run);
    finishBefore('old');
    expect(await before).toBe('old');
    expect(held.started).toBe(2);
  });

  it('starts a new run without joining when asked, and later callers join that one', async () => {
    const flights = new SingleFlight<string, string>();
    const { held, run } = heldRuns();
    void flights.run('k', run);
    const fresh = flights.run('k', run, { join: false });
    const joined = flights.run('k', run);
    held.finish('fresh');
    expect(await joined).toBe('fresh');
    expect(await fresh).toBe('fresh');
    expect(held.started).toBe(2);
  });
});
