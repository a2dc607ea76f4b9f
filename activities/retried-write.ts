/** One store write of an attempt, tried up to 3 times so a store hiccup does not make Temporal repeat the POST. */
export async function retriedWrite<T>(write: () => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await write();
    } catch (err) {
      if (tries >= 3) throw err;
      await new Promise((r) => setTimeout(r, 200 * tries));
    }
  }
}
