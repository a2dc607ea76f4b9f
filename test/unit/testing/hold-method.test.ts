import { holdMethod } from '../../support/gate';

class Store {
  writes: string[] = [];
  async write(value: string): Promise<string> {
    this.writes.push(value);
    return value;
  }
  count(): number {
    return this.writes.length;
  }
}

describe('holdMethod', () => {
  it('refuses to hold a method that does not exist, so a renamed method cannot leave a race test holding nothing', () => {
    const store = new Store();
    // @ts-expect-error the type admits only the target's asynchronous methods
    expect(() => holdMethod(store, 'setStatus')).toThrow(/setStatus is not a method of Store/);
  });

  it('refuses a property that is not a function', () => {
    const store = new Store();
    // @ts-expect-error `writes` is not a method
    expect(() => holdMethod(store, 'writes')).toThrow(/writes is not a method/);
  });

  it('does not admit a synchronous method, whose callers a held (asynchronous) call would break', () => {
    // @ts-expect-error `count` returns no promise
    const gate = holdMethod(new Store(), 'count');
    gate.restore();
  });

  it('holds the first matching call until opened, then lets it through with its arguments', async () => {
    const store = new Store();
    const gate = holdMethod(store, 'write', { when: (value) => value === 'held' });
    try {
      expect(await store.write('free')).toBe('free');
      const held = store.write('held');
      await gate.reached;
      expect(store.writes).toEqual(['free']);
      gate.open();
      expect(await held).toBe('held');
      expect(store.writes).toEqual(['free', 'held']);
    } finally {
      gate.restore();
    }
  });

  it('restores the method it wrapped', async () => {
    const store = new Store();
    const gate = holdMethod(store, 'write');
    gate.restore();
    expect(Object.prototype.hasOwnProperty.call(store, 'write')).toBe(false);
    expect(await store.write('after')).toBe('after');
  });
});
