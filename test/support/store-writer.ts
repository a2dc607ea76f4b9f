/**
 * A writer process for the two-process store suites (store-atomicity, claim-once, expiry-sweep, endpoint-store-writers): runs
 * `count` operations of one kind (writer-process.ts says how it is started and answers).
 * Usage: tsx store-writer.ts '<json: {uri, db, op, scope, count, name}>'
 */
import { writerOperations, type WriterJob } from './store-writer-ops';
import { serveWriterJob } from './writer-process';

serveWriterJob<WriterJob>((db, job) => writerOperations[job.op](db, job));
