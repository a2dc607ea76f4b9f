import type { ApiInstanceDoc } from './api-instances';
import type { EventDoc, Events } from './events';

/** Event ids read at once while looking for what a dead process left. */
const LOOKUP_CONCURRENCY = 16;
/** How far apart two API processes' clocks may be. */
const CLOCK_SLACK_MS = 60_000;

/**
 * What a dead `instance` owns above its watermark (or among `ids`, ascending); ids grow with time, so lookups stop past
 * its expiry. Returns the ids that held no event.
 */
export async function forEachEventLeftBy(events: Events, instance: ApiInstanceDoc, visit: (event: EventDoc) => Promise<void>, ids?: number[]): Promise<number[]> {
  const from = instance.watermark + 1;
  const count = ids ? ids.length : Math.max(0, (await events.ids.head()) - from + 1);
  const after = instance.expires_at.getTime() + CLOCK_SLACK_MS;
  let next = 0;
  const empty: number[] = [];
  const lookUp = async () => {
    while (next < count) {
      const id = ids ? ids[next++] : from + next++;
      const event = await events.findUnscoped(id);
      if (!event) empty.push(id);
      else if (event.created_at.getTime() > after) next = count;
      else if (event.owner === instance._id) await visit(event);
    }
  };
  await Promise.all(Array.from({ length: LOOKUP_CONCURRENCY }, lookUp));
  return empty.sort((a, b) => a - b);
}
