import { ProcessDocs } from './process-docs';

export interface ApiInstanceDoc {
  /** The lease id; the events the process accepts carry it with their hand-over batch (`owner`, events.ts ownerTag). */
  _id: string;
  /** Renewed every few seconds; once past, the process is taken for dead and its events are recovered. */
  expires_at: Date;
  /** Every event this process accepted in a batch up to this one has been handed to Temporal. */
  watermark: number;
  /** The batch its events are tagged with now (recorded before any event uses it): crash recovery reads the batches above the watermark up to it. */
  batch: number;
  started_at: Date;
  renewed_at: Date;
  host: string;
  pid: number;
}

/** `api_instances`: one lease per running API process; crash recovery removes a dead one with `{ expires_at }` as read. */
export class ApiInstances extends ProcessDocs<ApiInstanceDoc>('api_instances') {}
