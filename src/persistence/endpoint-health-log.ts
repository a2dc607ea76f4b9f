import { Collection, Db } from 'mongodb';
import { applyHealthFact, EMPTY_HEALTH, hasFact, HealthFact, HealthSummary } from '../domain/webhooks/endpoint-health';
import { insertUnique, memberId, probeGalloping } from './unique-sequence';

interface HealthEntryDoc {
  /** `<endpointId>#<n>`: entry n of the endpoint's log is written by exactly one writer. */
  _id: string;
  endpoint_id: string;
  n: number;
  /** The fact this entry added (its key: `delivery-<eventId>-<endpointId>#r<round>`, or `enabled#<time>`). */
  key: string;
  at: Date;
  /** The endpoint's health after this fact: entry n-1's summary with the fact applied. */
  summary: HealthSummary;
}

type HealthEntry = Pick<HealthEntryDoc, 'n' | 'summary'>;

/** Heads remembered per process; past this many endpoints the memory is dropped (then re-found by search). */
const MAX_REMEMBERED = 50_000;

/**
 * `endpoint_health`: one log per endpoint, an entry per fact (a delivery that ended, the endpoint
 * enabled again), each carrying the whole summary derived from the entry before it. The store
 * has no atomic read-modify-write (FerretDB loses concurrent `$inc`s and `$set`s to one
 * document) but enforces unique `_id`s, so entry n+1 is a plain insert of `<endpoint>#<n+1>`:
 * of two deliveries ending at once, one wins n+1, the other gets a duplicate-key error, reads
 * n+1 and writes n+2 from it. The log is a single order no writer can fork, so every count is
 * exact whatever the number of workers. Every access is an `{_id}` lookup or insert; the head is
 * found from the one this process saw last (one lookup when nothing changed: probeGalloping in
 * unique-sequence.ts).
 * A fact already in the head's recent keys is not added again (an activity run a second time).
 */
export class EndpointHealthLog {
  private readonly col: Collection<HealthEntryDoc>;
  private readonly heads = new Map<string, HealthEntry>();

  constructor(db: Db) {
    this.col = db.collection<HealthEntryDoc>('endpoint_health');
  }

  async ensureIndexes(): Promise<void> {
    /* `_id` lookups only; entries do not expire (so no purge timer from ExpirySweepers). */
  }

  /** The endpoint's current health (empty when nothing happened yet). */
  async read(endpointId: string): Promise<HealthSummary> {
    return (await this.head(endpointId))?.summary ?? EMPTY_HEALTH;
  }

  /** Adds `fact` once; returns the summary that includes it. */
  async record(endpointId: string, fact: HealthFact): Promise<HealthSummary> {
    // A remembered head is tried at once (no read when this process wrote the latest entry).
    let head = this.heads.get(endpointId) ?? (await this.head(endpointId));
    for (;;) {
      const summary = head?.summary ?? EMPTY_HEALTH;
      if (hasFact(summary, fact.key)) return summary;
      const next: HealthEntryDoc = {
        _id: memberId(endpointId, (head?.n ?? 0) + 1),
        endpoint_id: endpointId,
        n: (head?.n ?? 0) + 1,
        key: fact.key,
        at: fact.at,
        summary: applyHealthFact(summary, fact),
      };
      if (await insertUnique(this.col, next)) {
        this.remember(endpointId, next);
        return next.summary;
      }
      head = await this.head(endpointId, head);
    }
  }

  private async head(endpointId: string, known: HealthEntry | null = this.heads.get(endpointId) ?? null): Promise<HealthEntry | null> {
    const found = (await probeGalloping((n) => this.entry(endpointId, n), { n: known?.n ?? 0, doc: known })).doc;
    if (found) this.remember(endpointId, found);
    return found;
  }

  private async entry(endpointId: string, n: number): Promise<HealthEntry | null> {
    const doc = await this.col.findOne({ _id: memberId(endpointId, n) }, { projection: { n: 1, summary: 1 } });
    return doc ? { n: doc.n, summary: doc.summary } : null;
  }

  private remember(endpointId: string, entry: HealthEntry): void {
    const known = this.heads.get(endpointId);
    if (known && known.n >= entry.n) return;
    if (this.heads.size >= MAX_REMEMBERED) this.heads.clear();
    this.heads.set(endpointId, { n: entry.n, summary: entry.summary });
  }
}
