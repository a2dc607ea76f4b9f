import net from 'node:net';

/**
 * A TCP proxy in front of the MongoDB-wire store, to hold a process at a racy point: once a
 * command that `trigger` recognises has gone through, every later command from any of the
 * process's connections is held (never forwarded), while answers still flow back. Or to lose the
 * answer to one command: it is carried out, and its connection is closed when the answer comes.
 * Messages are split by the wire protocol's length prefix, so a command is held or passed whole.
 */
export async function startStoreProxy(target: { host: string; port: number }) {
  let trigger: ((message: Buffer) => boolean) | null = null;
  let holding = false;
  let loseAnswerTo: ((message: Buffer) => boolean) | null = null;
  let answersLost = 0;
  const sockets = new Set<net.Socket>();
  let refusing = false;

  const server = net.createServer((client) => {
    if (refusing) {
      client.destroy();
      return;
    }
    const upstream = net.connect(target.port, target.host);
    sockets.add(client).add(upstream);
    let pending = Buffer.alloc(0);
    /** The command just passed is the one whose answer is lost (the driver sends one command at a time per connection). */
    let losing = false;
    client.on('data', (chunk) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 4 && pending.length >= pending.readInt32LE(0)) {
        const length = pending.readInt32LE(0);
        const message = pending.subarray(0, length);
        pending = pending.subarray(length);
        if (holding) continue;
        upstream.write(message);
        if (trigger?.(message)) holding = true;
        if (loseAnswerTo?.(message)) {
          loseAnswerTo = null;
          losing = true;
        }
      }
    });
    upstream.on('data', (chunk) => {
      if (!losing) client.write(chunk);
      else {
        answersLost++;
        close();
      }
    });
    const close = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', close).on('close', close);
    upstream.on('error', close).on('close', close);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;

  return {
    uri: (database?: string) => `mongodb://127.0.0.1:${port}/${database ?? ''}`,
    /** From now on, the first message `matches` recognises passes, and everything after it is held. */
    holdAfter(matches: (message: Buffer) => boolean): void {
      trigger = matches;
    },
    get holding(): boolean {
      return holding;
    },
    /** From now on, the first message `matches` recognises is carried out, and its answer is lost: its connection closes instead. */
    loseAnswerTo(matches: (message: Buffer) => boolean): void {
      loseAnswerTo = matches;
    },
    /** While on, the store is unreachable: every connection is cut, and new ones are closed as they open. */
    refuse(on: boolean): void {
      refusing = on;
      if (on) for (const s of sockets) s.destroy();
    },
    /** How many answers were lost so far. */
    get answersLost(): number {
      return answersLost;
    },
    async close(): Promise<void> {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** An `update` command on `collection` (the BSON of `{update: "<collection>", ...}`). */
export function isUpdateOf(collection: string): (message: Buffer) => boolean {
  const command = Buffer.from('\x02update\x00', 'latin1');
  const name = Buffer.from(`${collection}\x00`, 'latin1');
  return (message) => message.includes(command) && message.includes(name);
}

/** An `insert` command into exactly `collection` (the BSON of `{insert: "<collection>", ...}`). */
export function isInsertInto(collection: string): (message: Buffer) => boolean {
  const name = Buffer.from(`${collection}\x00`, 'latin1');
  const length = Buffer.alloc(4);
  length.writeInt32LE(name.length);
  const element = Buffer.concat([Buffer.from('\x02insert\x00', 'latin1'), length, name]);
  return (message) => message.includes(element);
}

export type StoreProxy = Awaited<ReturnType<typeof startStoreProxy>>;

/**
 * For a describe block whose platform reaches the test store through a proxy: `env` gets its MONGODB_URI in a beforeAll
 * registered here, so call this before the fixture that starts the platform with `env`.
 */
export function storeBehindProxy(): { env: Record<string, string>; proxy: () => StoreProxy } {
  const env: Record<string, string> = {};
  let proxy: StoreProxy | undefined;
  beforeAll(async () => {
    const store = new URL(process.env.MONGODB_URI as string);
    proxy = await startStoreProxy({ host: store.hostname, port: Number(store.port) });
    env.MONGODB_URI = proxy.uri();
  });
  afterAll(async () => {
    await proxy?.close();
  });
  return { env, proxy: () => proxy as StoreProxy };
}
