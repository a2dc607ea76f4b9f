import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { cp, mkdir } from 'node:fs/promises';
import path from 'node:path';

/**
 * Repeats a multi-stage Dockerfile's build without a Docker engine: each stage in a folder of its
 * own standing for its WORKDIR, its COPY steps from the build context (less what .dockerignore
 * leaves out) or from an earlier stage, its RUN steps in `sh -c` there. It knows the instructions
 * our Dockerfile uses and refuses any other, so a Dockerfile it cannot repeat faithfully fails the
 * test instead of being half-built.
 */

type Step = { kind: 'copy'; from?: string; sources: string[]; dest: string; line: string } | { kind: 'run'; command: string; line: string };

export interface DockerStage {
  name?: string;
  base: string;
  workdir?: string;
  env: Record<string, string>;
  steps: Step[];
  cmd?: string[];
}

/** The instructions, continuation lines joined and comments dropped, one per entry. */
function instructions(text: string): string[] {
  const out: string[] = [];
  let pending = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!pending && (line === '' || line.startsWith('#'))) continue;
    if (pending && line.startsWith('#')) continue;
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1)} `;
      continue;
    }
    out.push(pending + line);
    pending = '';
  }
  if (pending) out.push(pending);
  return out;
}

export function parseDockerfile(text: string): DockerStage[] {
  const stages: DockerStage[] = [];
  for (const line of instructions(text)) {
    const [, keyword = '', rest = ''] = line.match(/^(\S+)\s*(.*)$/) ?? [];
    const instruction = keyword.toUpperCase();
    if (instruction === 'FROM') {
      const from = rest.match(/^(\S+)(?:\s+AS\s+(\S+))?$/i);
      if (!from) throw new Error(`Dockerfile: cannot read ${line}`);
      stages.push({ base: from[1] as string, name: from[2], env: {}, steps: [] });
      continue;
    }
    const stage = stages[stages.length - 1];
    if (!stage) throw new Error(`Dockerfile: ${line} before any FROM`);
    switch (instruction) {
      case 'WORKDIR':
        if (stage.steps.length > 0 || stage.workdir) throw new Error(`Dockerfile: only one WORKDIR per stage, before its steps, is repeated here: ${line}`);
        stage.workdir = rest;
        break;
      case 'ENV':
        for (const pair of rest.split(/\s+/)) {
          const kv = pair.match(/^([A-Za-z_][A-Za-z0-9_]*)=([^"'\s$]*)$/);
          if (!kv) throw new Error(`Dockerfile: only unquoted KEY=value pairs are repeated here: ${line}`);
          stage.env[kv[1] as string] = kv[2] as string;
        }
        break;
      case 'COPY': {
        const words = rest.split(/\s+/);
        let from: string | undefined;
        while (words[0]?.startsWith('--')) {
          const flag = words.shift() as string;
          const value = flag.match(/^--from=(\S+)$/);
          if (!value) throw new Error(`Dockerfile: COPY flag not repeated here: ${line}`);
          from = value[1];
        }
        if (words.length < 2 || words.some((w) => /[*?[\]]/.test(w) || w.startsWith('['))) throw new Error(`Dockerfile: only COPY <path>... <dest> without wildcards is repeated here: ${line}`);
        stage.steps.push({ kind: 'copy', from, sources: words.slice(0, -1), dest: words[words.length - 1] as string, line });
        break;
      }
      case 'RUN':
        if (rest.startsWith('[') || rest.startsWith('--')) throw new Error(`Dockerfile: only the shell form of RUN is repeated here: ${line}`);
        stage.steps.push({ kind: 'run', command: rest, line });
        break;
      case 'CMD':
        stage.cmd = JSON.parse(rest) as string[];
        break;
      // Not repeated: which user runs the processes (the test's own) and what port is documented.
      case 'USER':
      case 'EXPOSE':
        break;
      default:
        throw new Error(`Dockerfile: ${instruction} is not repeated here: ${line}`);
    }
  }
  return stages;
}

/** .dockerignore as paths from the context root; a pattern this does not read (wildcards, exceptions) is refused. */
export function parseDockerignore(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => {
      if (/[*?[\]!\\]/.test(l)) throw new Error(`.dockerignore: only plain paths are repeated here: ${l}`);
      return path.posix.normalize(l).replace(/^\/+|\/+$/g, '');
    });
}

export interface BuiltImage {
  /** The final stage's folder: its WORKDIR as the image holds it. */
  dir: string;
  env: Record<string, string>;
  cmd?: string[];
}

export interface BuildOptions {
  contextDir: string;
  /** An empty folder; each stage is built in a folder under it. */
  workDir: string;
  /** The environment of every RUN step. */
  runEnv: NodeJS.ProcessEnv;
  log?: (line: string) => void;
}

/** Builds every stage of the Dockerfile in `contextDir` in turn, and returns the last one. */
export async function buildDockerfile(options: BuildOptions): Promise<BuiltImage> {
  const { contextDir, workDir } = options;
  const stages = parseDockerfile(readFileSync(path.join(contextDir, 'Dockerfile'), 'utf8'));
  const ignoreFile = path.join(contextDir, '.dockerignore');
  const ignored = existsSync(ignoreFile) ? parseDockerignore(readFileSync(ignoreFile, 'utf8')) : [];
  const isIgnored = (relative: string) => ignored.some((p) => relative === p || relative.startsWith(`${p}/`));
  const built = new Map<string, { dir: string; workdir: string }>();
  let last: BuiltImage | undefined;
  for (const [index, stage] of stages.entries()) {
    const workdir = stage.workdir ?? '/';
    const dir = path.join(workDir, `stage-${index}${stage.name ? `-${stage.name}` : ''}`);
    await mkdir(dir, { recursive: true });
    /** A path in the stage's file system, as a folder on this machine (the stage's WORKDIR is `dir`). */
    const inStage = (stageDir: string, stageWorkdir: string, p: string, line: string) => {
      const absolute = path.posix.resolve(stageWorkdir, p);
      const relative = path.posix.relative(stageWorkdir, absolute);
      if (relative.startsWith('..')) throw new Error(`Dockerfile: ${p} is outside the stage's WORKDIR ${stageWorkdir}, not repeated here: ${line}`);
      return path.join(stageDir, relative);
    };
    for (const step of stage.steps) {
      options.log?.(step.line);
      if (step.kind === 'run') {
        await runStep(step.command, dir, options.runEnv);
        continue;
      }
      const source = step.from === undefined ? undefined : built.get(step.from);
      if (step.from !== undefined && !source) throw new Error(`Dockerfile: no earlier stage named ${step.from}: ${step.line}`);
      const intoFolder = step.dest.endsWith('/') || step.sources.length > 1;
      for (const src of step.sources) {
        const from = source ? inStage(source.dir, source.workdir, src, step.line) : path.join(contextDir, path.posix.normalize(src));
        if (!source && (path.posix.normalize(src).startsWith('..') || isIgnored(path.posix.normalize(src).replace(/^\.\/?|\/$/g, '')))) {
          throw new Error(`Dockerfile: ${src} is outside the build context or left out by .dockerignore: ${step.line}`);
        }
        if (!existsSync(from)) throw new Error(`Dockerfile: ${src} does not exist: ${step.line}`);
        const dest = inStage(dir, workdir, step.dest, step.line);
        // A folder's contents go into dest; a file goes into dest/ when dest names a folder.
        const target = statSync(from).isDirectory() || !intoFolder ? dest : path.join(dest, path.basename(from));
        await cp(from, target, {
          recursive: true,
          verbatimSymlinks: true,
          filter: (file) => source !== undefined || !isIgnored(path.relative(contextDir, file).split(path.sep).join('/')),
        });
      }
    }
    if (stage.name) built.set(stage.name, { dir, workdir });
    built.set(String(index), { dir, workdir });
    last = { dir, env: stage.env, cmd: stage.cmd };
  }
  if (!last) throw new Error('Dockerfile: no stage');
  return last;
}

function runStep(command: string, cwd: string, env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', command], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const keep = (d: Buffer) => (out = (out + d.toString()).slice(-20_000));
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve() : reject(new Error(`RUN ${command}\nexited ${code}:\n${out}`))));
  });
}
