import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, cp, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { TOOL_VERSIONS, toolPaths, toolsDir } from './tools';

const run = promisify(execFile);

export interface ProvisionOptions {
  /** Which tools are needed: the app needs the servers only when no addresses are given; tests also need the test server. */
  need: { temporalCli: boolean; ferretDb: boolean; temporalTestServer: boolean };
  env?: NodeJS.ProcessEnv;
  log?: (line: string) => void;
}

/**
 * Builds whatever is missing, once. Each build writes to a temporary name and is renamed
 * into place only when complete, so an interrupted build is simply redone next time.
 */
export async function provision(options: ProvisionOptions): Promise<void> {
  const env = options.env ?? process.env;
  const log = options.log ?? ((line: string) => process.stderr.write(`[provision] ${line}\n`));
  const paths = toolPaths(env);
  const dir = toolsDir(env);

  const steps: Array<[string, boolean, string, () => Promise<void>]> = [
    ['Temporal CLI (dev server + Web UI)', options.need.temporalCli, paths.temporalCli, () => buildTemporalCli(dir, paths.temporalCli)],
    ['FerretDB (MongoDB wire protocol on SQLite)', options.need.ferretDb, paths.ferretDb, () => buildFerretDb(dir, paths.ferretDb)],
    ['Temporal time-skipping test server', options.need.temporalTestServer, paths.temporalTestServer, () => fetchTestServer(paths.temporalTestServer)],
  ];
  for (const [name, needed, target, build] of steps) {
    if (!needed) continue;
    if (existsSync(target)) {
      log(`${name}: ready at ${path.relative(process.cwd(), target) || target}`);
      continue;
    }
    const started = Date.now();
    log(`${name}: building (first time only, a few minutes)...`);
    await build();
    log(`${name}: built in ${Math.round((Date.now() - started) / 1000)} s`);
  }
}

async function buildTemporalCli(dir: string, target: string): Promise<void> {
  const gobin = path.join(dir, 'gobin-temporal');
  await rm(gobin, { recursive: true, force: true });
  await mkdir(gobin, { recursive: true });
  await run('go', ['install', `github.com/temporalio/cli/cmd/temporal@v${TOOL_VERSIONS.temporalCli}`], {
    env: { ...process.env, GOBIN: gobin, CGO_ENABLED: '0' },
    maxBuffer: 64 * 1024 * 1024,
  });
  await mkdir(path.dirname(target), { recursive: true });
  await rename(path.join(gobin, 'temporal'), target);
  await rm(gobin, { recursive: true, force: true });
}

/**
 * `go install ferretdb@v1.24.2` fails here: the module proxy refuses the version list it
 * reads for deprecation notices. Downloading the module itself works, so we build from
 * its source. The module ships without build/version/version.txt, which the binary embeds.
 */
async function buildFerretDb(dir: string, target: string): Promise<void> {
  const mod = `github.com/FerretDB/FerretDB@v${TOOL_VERSIONS.ferretDb}`;
  const { stdout } = await run('go', ['mod', 'download', '-json', mod], { maxBuffer: 16 * 1024 * 1024 });
  const moduleDir = (JSON.parse(stdout) as { Dir: string }).Dir;
  const src = path.join(dir, 'src', `ferretdb-${TOOL_VERSIONS.ferretDb}`);
  await rm(src, { recursive: true, force: true });
  await mkdir(path.dirname(src), { recursive: true });
  await cp(moduleDir, src, { recursive: true });
  await run('chmod', ['-R', 'u+w', src]);
  await writeFile(path.join(src, 'build', 'version', 'version.txt'), `v${TOOL_VERSIONS.ferretDb}\n`);
  await patchFerretDbIdLookups(src);
  await patchFerretDbEqualityPushdown(src);
  const tmp = `${target}.partial`;
  await mkdir(path.dirname(target), { recursive: true });
  await run('go', ['build', '-o', tmp, './cmd/ferretdb'], { cwd: src, env: { ...process.env, CGO_ENABLED: '0' }, maxBuffer: 64 * 1024 * 1024 });
  await rename(tmp, target);
  await rm(src, { recursive: true, force: true });
}

/**
 * FerretDB 1.24's SQLite backend creates the `_id` index on the expression `_ferretdb_sjson->"_id"`
 * but looks documents up by `_ferretdb_sjson->'$._id'`: the same value, yet not the same
 * expression, so SQLite never uses the index and every find, update and delete by `_id` scans the
 * whole collection (measured: ~110 point reads/s on a few thousand documents, falling as the
 * collection grows). Looking up by the indexed expression makes them index searches.
 */
async function patchFerretDbIdLookups(src: string): Promise<void> {
  const file = path.join(src, 'internal', 'backends', 'sqlite', 'metadata', 'metadata.go');
  const text = await readFile(file, 'utf8');
  const before = `IDColumn = DefaultColumn + "->'$._id'"`;
  if (!text.includes(before)) throw new Error(`FerretDB source changed: ${before} not found in ${file}`);
  await writeFile(file, text.replace(before, 'IDColumn = DefaultColumn + "->\\"_id\\""'));
}

/**
 * FerretDB 1.24's SQLite backend gives SQLite a WHERE clause only for a filter that is exactly
 * `{_id: value}`; any other filter reads the whole collection into FerretDB (listing one account's
 * endpoints read every account's: 117 lists/s with 200 endpoints stored). ferretdb-patches/
 * equality_pushdown.go hands SQLite the filter's top-level string equalities too, on the expressions
 * the indexes are built on, as a superset FerretDB still filters exactly (see that file).
 */
async function patchFerretDbEqualityPushdown(src: string): Promise<void> {
  const dir = path.join(src, 'internal', 'backends', 'sqlite');
  await cp(path.join(__dirname, 'ferretdb-patches', 'equality_pushdown.go'), path.join(dir, 'equality_pushdown.go'));
  const file = path.join(dir, 'collection.go');
  let text = await readFile(file, 'utf8');
  const idOnly = (pushdownFlag: string) =>
    `\tif params.Filter.Len() == 1 {\n\t\tv, _ := params.Filter.Get("_id")\n\t\tswitch v.(type) {\n\t\tcase string, types.ObjectID:\n${pushdownFlag}` +
    `\t\t\twhereClause = fmt.Sprintf(\` WHERE %s = ?\`, metadata.IDColumn)\n\t\t\targs = []any{string(must.NotFail(sjson.MarshalSingleValue(v)))}\n\t\t}\n\t}\n`;
  const query = idOnly('');
  const explain = idOnly('\t\t\tfilterPushdown = true\n');
  if (!text.includes(query) || !text.includes(explain)) throw new Error(`FerretDB source changed: the _id-only pushdown was not found in ${file}`);
  text = text.replace(query, '\twhereClause, args = equalityPushdown(params.Filter)\n');
  text = text.replace(explain, '\twhereClause, args = equalityPushdown(params.Filter)\n\tfilterPushdown = whereClause != ""\n');
  await writeFile(file, text);
}

/** The Java test server and its runtime dependencies from Maven Central, behind a launcher script. */
async function fetchTestServer(launcher: string): Promise<void> {
  const home = path.dirname(launcher);
  const work = `${home}.partial`;
  await rm(work, { recursive: true, force: true });
  await mkdir(work, { recursive: true });
  await writeFile(
    path.join(work, 'pom.xml'),
    `<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>local.provision</groupId><artifactId>temporal-test-server-launcher</artifactId><version>1</version>
  <dependencies>
    <dependency><groupId>io.temporal</groupId><artifactId>temporal-test-server</artifactId><version>${TOOL_VERSIONS.temporalTestServer}</version></dependency>
  </dependencies>
</project>
`,
  );
  await run('mvn', ['-q', '-B', 'dependency:copy-dependencies', '-DoutputDirectory=jars', '-DincludeScope=runtime'], {
    cwd: work,
    maxBuffer: 64 * 1024 * 1024,
  });
  await writeFile(
    path.join(work, 'temporal-test-server'),
    '#!/bin/sh\n# Usage: temporal-test-server <port> [--enable-time-skipping]\n' +
      'exec java -Xss4m -cp "$(dirname "$0")/jars/*" io.temporal.testserver.TestServer "$@"\n',
  );
  await chmod(path.join(work, 'temporal-test-server'), 0o755);
  await rm(home, { recursive: true, force: true });
  await rename(work, home);
}
