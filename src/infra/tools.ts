import path from 'node:path';

/**
 * The external servers the platform runs on when no addresses are given, with the exact
 * versions we build them at. Built from the package registries (Go module proxy, Maven
 * Central) because no MongoDB server and no Temporal server download is reachable here.
 */
export const TOOL_VERSIONS = {
  /** Later tags carry a `replace` directive, which `go install` refuses. */
  temporalCli: '1.5.1',
  ferretDb: '1.24.2',
  /** Our build-time fix of FerretDB (see provision.ts, buildFerretDb); part of the binary's name so an older build is replaced. */
  ferretDbPatch: 'pushdown2',
  temporalTestServer: '1.31.0',
} as const;

export const PROJECT_ROOT = path.resolve(__dirname, '..', '..');

/** Where built tools are cached (git-ignored). */
export function toolsDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(PROJECT_ROOT, env.TOOLS_DIR ?? '.tools');
}

export interface ToolPaths {
  temporalCli: string;
  ferretDb: string;
  temporalTestServer: string;
}

/** Binary paths: an explicit env override wins, otherwise the cached build. */
export function toolPaths(env: NodeJS.ProcessEnv = process.env): ToolPaths {
  const dir = toolsDir(env);
  return {
    temporalCli: env.TEMPORAL_CLI_PATH ?? path.join(dir, 'bin', `temporal-${TOOL_VERSIONS.temporalCli}`),
    ferretDb: env.FERRETDB_PATH ?? path.join(dir, 'bin', `ferretdb-${TOOL_VERSIONS.ferretDb}-${TOOL_VERSIONS.ferretDbPatch}`),
    temporalTestServer:
      env.TEMPORAL_TEST_SERVER_PATH ?? path.join(dir, `temporal-test-server-${TOOL_VERSIONS.temporalTestServer}`, 'temporal-test-server'),
  };
}
