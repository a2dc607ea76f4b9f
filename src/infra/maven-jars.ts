import { existsSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { run } from './run-tool';

/**
 * The dependencies' runtime jars from Maven Central into `<home>/jars` (mvn honours the machine's
 * settings and shares ~/.m2), and beside them `files` (a launcher, a log configuration). Built under
 * a name of this process's own and renamed into place: `home` appears whole or not at all, and two
 * processes provisioning at once both succeed.
 */
export async function installMavenJars(
  home: string,
  dependencies: string[],
  files: Record<string, { text: string; executable?: boolean }> = {},
  /** Runs in the folder being built, after the jars are in `jars/` (e.g. to compile a patch beside them). */
  prepare?: (work: string) => Promise<void>,
): Promise<void> {
  const work = `${home}.partial-${process.pid}`;
  await rm(work, { recursive: true, force: true });
  await mkdir(work, { recursive: true });
  const dependencyXml = dependencies.map((coordinates) => {
    const [groupId, artifactId, version] = coordinates.split(':');
    return `    <dependency><groupId>${groupId}</groupId><artifactId>${artifactId}</artifactId><version>${version}</version></dependency>`;
  });
  await writeFile(
    path.join(work, 'pom.xml'),
    `<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>local.provision</groupId><artifactId>${path.basename(home)}</artifactId><version>1</version>
  <dependencies>
${dependencyXml.join('\n')}
  </dependencies>
</project>
`,
  );
  try {
    await oneMavenAtATime(() => run('mvn', ['-q', '-B', 'dependency:copy-dependencies', '-DoutputDirectory=jars', '-DincludeScope=runtime'], { cwd: work }));
    for (const [name, file] of Object.entries(files)) await writeFile(path.join(work, name), file.text, { mode: file.executable ? 0o755 : 0o644 });
    await prepare?.(work);
    await rename(work, home);
  } catch (err) {
    await rm(work, { recursive: true, force: true });
    // Another process got there first (rename refuses a non-empty target): its copy is as good.
    if (existsSync(home)) return;
    throw err;
  }
}

/** The files matching `includes` of one artifact (`group:artifact:version:type:classifier`, e.g. a sources jar), unpacked into `dir`. */
export async function unpackMavenArtifact(coordinates: string, includes: string, dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await oneMavenAtATime(() => run('mvn', ['-q', '-B', 'dependency:unpack', `-Dartifact=${coordinates}`, `-Dmdep.unpack.includes=${includes}`, `-DoutputDirectory=${dir}`], { cwd: dir }));
}

let mavenTurn: Promise<unknown> = Promise.resolve();

/** Maven 3.8 does not lock its local repository: two builds fetching one artifact (the plugin, a shared library) at once can corrupt it. */
function oneMavenAtATime<T>(work: () => Promise<T>): Promise<T> {
  const turn = mavenTurn.then(work, work);
  mavenTurn = turn.catch(() => undefined);
  return turn;
}
