import type { ApiInstanceDoc } from './api-instances';
import type { EventDoc, Events } from './events';

/** Event ids read at once while looking for what a dead process left. */
const LOOKUP_CONCURRENCY = 16;
/** How far apart two API processes' clocks may be. */
const CLOCK_SLACK_MS = 60_000;

/** What a dead `instance` owns above its watermark; ids grow with time, so lookups stop past its expiry. */
export async function forEachEventLeftBy(events: Events, instance: ApiInstanceDoc, visit: (event: EventDoc) => Promise<void>): Promise<void> {
  const top = await events.ids.head();
  const after = instance.expires_at.getTime() + CLOCK_SLACK_MS;
  let next = instance.watermark + 1;
  const lookUp = async () => {
    while (next <= top) {
      const event = await events.findUnscoped(next++);
      if (event && event.created_at.getTime() > after) next = top + 1;
      else if (event && event.owner === instance._id) await visit(event);
    }
  };
  await Promise.all(Array.from({ length: LOOKUP_CONCURRENCY }, lookUp));
}
