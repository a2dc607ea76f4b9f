import type { UpdateFilter } from 'mongodb';
import { EMPTY_HEALTH, HEALTH_WINDOW_HOURS, hourStartOf, type HealthFact, type HealthSummary } from '../domain/webhooks/endpoint-health';
import { unlessIdTaken } from './mongo';
import { StoreCollection } from './store-collection';

/**
 * Facts remembered by key: the latest this many, so that a fact recorded twice (an activity run again) counts once
 * while fewer other facts of its endpoint came between.
 */
export const RECENT_FACT_KEYS = 64;

const HOUR_MS = 3_600_000;

interface HealthDoc {
  /** The endpoint's id. */
  _id: string;
  last_success_at?: Date;
  last_failure_at?: Date;
  consecutive_failures?: number;
  /** Absent while the endpoint is not failing. */
  failing_since?: Date;
  /** Deliveries ended per UTC hour, keyed `h<hour start, ms since the epoch>`; hours past the window are removed after a write. */
  hours?: Record<string, { succeeded?: number; failed?: number }>;
  /** The keys of the latest RECENT_FACT_KEYS facts, oldest first. */
  recent_keys?: string[];
}

const hourKey = (hour: number) => `h${hour}`;

/** The health rule: a success ends a failing streak, enabling the endpoint again starts it afresh; as operators, so concurrent writers each apply theirs. */
function updateOf(fact: HealthFact): UpdateFilter<HealthDoc> {
  const remember = { $push: { recent_keys: { $each: [fact.key], $slice: -RECENT_FACT_KEYS } } };
  if (fact.kind === 'enabled') return { ...remember, $set: { consecutive_failures: 0 }, $unset: { failing_since: '' } };
  const counted = `hours.${hourKey(hourStartOf(fact.at))}.${fact.succeeded ? 'succeeded' : 'failed'}`;
  if (fact.succeeded) return { ...remember, $inc: { [counted]: 1 }, $max: { last_success_at: fact.at }, $set: { consecutive_failures: 0 }, $unset: { failing_since: '' } };
  return { ...remember, $inc: { [counted]: 1, consecutive_failures: 1 }, $max: { last_failure_at: fact.at }, $min: { failing_since: fact.at } };
}

function summaryOf(doc: HealthDoc | null): HealthSummary {
  if (!doc) return EMPTY_HEALTH;
  const hours = Object.entries(doc.hours ?? {})
    .map(([key, counts]) => ({ hour: Number(key.slice(1)), succeeded: counts.succeeded ?? 0, failed: counts.failed ?? 0 }))
    .sort((a, b) => a.hour - b.hour);
  return {
    last_success_at: doc.last_success_at ?? null,
    last_failure_at: doc.last_failure_at ?? null,
    consecutive_failures: doc.consecutive_failures ?? 0,
    failing_since: doc.failing_since ?? null,
    hours,
  };
}

/** One document per endpoint, each fact one conditional update: counted unless its key is among the recent ones. */
export class EndpointHealthLog extends StoreCollection<HealthDoc>('endpoint_health') {
  async read(endpointId: string): Promise<HealthSummary> {
    return summaryOf(await this.col.findOne({ _id: endpointId }));
  }

  /** Adds `fact` once; returns the summary that includes it. */
  async record(endpointId: string, fact: HealthFact): Promise<HealthSummary> {
    const filter = { _id: endpointId, recent_keys: { $ne: fact.key } };
    const update = updateOf(fact);
    // Null: the upsert's insert was refused, as the document holds the key already, or (MongoDB) another writer's upsert created it first.
    const doc =
      (await unlessIdTaken(() => this.col.findOneAndUpdate(filter, update, { upsert: true, returnDocument: 'after' }))) ??
      (await this.col.findOneAndUpdate(filter, update, { returnDocument: 'after' })) ??
      (await this.col.findOne({ _id: endpointId }));
    await this.tidy(doc);
    return summaryOf(doc);
  }

  /** Drops hours before the window of the newest one: an extra write once per hour. */
  private async tidy(doc: HealthDoc | null): Promise<void> {
    if (!doc) return;
    const hours = Object.keys(doc.hours ?? {}).map((key) => Number(key.slice(1)));
    const oldest = Math.max(...hours) - (HEALTH_WINDOW_HOURS - 1) * HOUR_MS;
    const stale = hours.filter((hour) => hour < oldest);
    if (stale.length === 0) return;
    await this.col.updateOne({ _id: doc._id }, { $unset: Object.fromEntries(stale.map((hour) => [`hours.${hourKey(hour)}`, ''])) });
  }
}
