import { applyHealthFact, EMPTY_HEALTH, HealthFact, HealthSummary } from '../domain/webhooks/endpoint-health';
import { StoreCollection } from './store-collection';
import { AppendLog } from './store-primitives';

/** Facts remembered by key in each entry, so that a fact recorded twice (an activity run again) counts once. */
export const RECENT_FACT_KEYS = 32;

/** An entry's value: the endpoint's health after its fact, and the keys of the latest facts (newest last). */
interface HealthEntry {
  summary: HealthSummary;
  recent_keys: string[];
}

interface HealthEntryDoc {
  /** `<endpointId>#<n>`: entry n of the endpoint's log is written by exactly one writer. */
  _id: string;
  endpoint_id: string;
  n: number;
  /** The fact this entry added (its key: `delivery-<eventId>-<endpointId>#r<round>`, or `enabled#<time>`). */
  key: string;
  at: Date;
  /** The endpoint's health after this fact, with the recent keys inside it. */
  summary: HealthSummary & { recent_keys: string[] };
}

/** An append log per endpoint, each entry's summary derived from the one before (exact: append-log.ts). */
export class EndpointHealthLog extends StoreCollection<HealthEntryDoc>('endpoint_health') {
  private readonly log = new AppendLog<HealthEntry & { key: string; at: Date }, HealthEntryDoc>(this.col, {
    toDoc: (endpointId, n, { summary, recent_keys, key, at }) => ({ endpoint_id: endpointId, n, key, at, summary: { ...summary, recent_keys } }),
    fromDoc: (doc) => {
      const { recent_keys, ...summary } = doc.summary;
      return { summary, recent_keys: recent_keys ?? [], key: doc.key, at: doc.at };
    },
    projection: { summary: 1, key: 1, at: 1 },
  });

  async read(endpointId: string): Promise<HealthSummary> {
    return (await this.log.head(endpointId))?.value.summary ?? EMPTY_HEALTH;
  }

  /** Adds `fact` once; returns the summary that includes it. */
  async record(endpointId: string, fact: HealthFact): Promise<HealthSummary> {
    const { entry } = await this.log.append(endpointId, (head) => {
      const recent = head?.value.recent_keys ?? [];
      if (recent.includes(fact.key)) return null;
      return {
        summary: applyHealthFact(head?.value.summary ?? EMPTY_HEALTH, fact),
        recent_keys: [...recent, fact.key].slice(-RECENT_FACT_KEYS),
        key: fact.key,
        at: fact.at,
      };
    });
    return entry?.value.summary ?? EMPTY_HEALTH;
  }
}
