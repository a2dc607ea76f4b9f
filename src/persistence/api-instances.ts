import { ProcessDocs } from './process-docs';

export interface ApiInstanceDoc {
  /** The lease id an API process writes into the events it accepts (`owner`). */
  _id: string;
  /** Renewed every few seconds; once past, the process is taken for dead and its events are recovered. */
  expires_at: Date;
  /** Every event this process accepted with an id at most this has been handed to Temporal. */
  watermark: number;
  started_at: Date;
  renewed_at: Date;
  host: string;
  pid: number;
}

/** `api_instances`: one lease per running API process; crash recovery removes a dead one with `{ expires_at }` as read. */
export class ApiInstances extends ProcessDocs<ApiInstanceDoc>('api_instances') {}
