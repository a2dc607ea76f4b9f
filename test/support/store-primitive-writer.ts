/**
 * A writer process for the store-primitive suites (test/integration/store-primitives/): runs
 * `count` operations of one kind (writer-process.ts says how it is started and answers).
 * Usage: tsx store-primitive-writer.ts '<json: {uri, db, op, scope, count, name}>'
 */
import { writerOperations, type WriterJob } from './store-primitive-ops';
import { serveWriterJob } from './writer-process';

serveWriterJob<WriterJob>((db, job) => writerOperations[job.op](db, job));
