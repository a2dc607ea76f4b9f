import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from '../../../src/infra/tools';
import { buildDockerfile, parseDockerfile, parseDockerignore } from '../../support/dockerfile-build';

/** The tool that repeats the Dockerfile's build for test/integration/production-image.test.ts. */
describe('repeating a Dockerfile without Docker', () => {
  it("reads the project's Dockerfile: a build stage, and a final stage that copies from it only", () => {
    const [build, final, ...more] = parseDockerfile(readFileSync(path.join(PROJECT_ROOT, 'Dockerfile'), 'utf8'));
    expect(more).toEqual([]);
    expect(build!.name).toBe('build');
    expect(build!.steps.filter((s) => s.kind === 'run').map((s) => s.kind === 'run' && s.command)).toEqual([expect.stringMatching(/^npm ci\b/), expect.stringMatching(/^npm run build && npm prune --omit=dev\b/)]);
    expect(final!.steps.every((s) => s.kind === 'copy' && s.from === 'build')).toBe(true);
    expect(final!.env.NODE_ENV).toBe('production');
    expect(final!.cmd).toEqual(['node', 'dist/src/main/api.js']);
  });

  it.each([
    ['ADD', 'FROM x\nADD a b'],
    ['a wildcard', 'FROM x\nCOPY src/*.ts ./'],
    ['a COPY flag other than --from', 'FROM x\nCOPY --chown=node a b'],
    ['the exec form of RUN', 'FROM x\nRUN ["npm", "ci"]'],
    ['a quoted ENV value', 'FROM x\nENV A="b c"'],
    ['a second WORKDIR', 'FROM x\nWORKDIR /a\nCOPY a b\nWORKDIR /b'],
  ])('refuses %s rather than build something else', (_what, dockerfile) => {
    expect(() => parseDockerfile(dockerfile)).toThrow(/Dockerfile: /);
  });

  it.each(['**/node_modules', '!keep', '*.log'])('refuses the .dockerignore pattern %s', (pattern) => {
    expect(() => parseDockerignore(pattern)).toThrow(/only plain paths/);
  });

  it('copies files, folders and earlier stages as Docker does, leaves out what .dockerignore names, and runs RUN in the WORKDIR', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'dockerfile-build-'));
    try {
      const context = path.join(root, 'context');
      await mkdir(path.join(context, 'dir', 'secret'), { recursive: true });
      await writeFile(path.join(context, 'a.txt'), 'A');
      await writeFile(path.join(context, 'b.txt'), 'B');
      await writeFile(path.join(context, 'dir', 'c.txt'), 'C');
      await writeFile(path.join(context, 'dir', 'secret', 'key'), 'K');
      await writeFile(path.join(context, '.dockerignore'), '# comment\ndir/secret\n');
      await writeFile(
        path.join(context, 'Dockerfile'),
        [
          'FROM base AS build',
          'WORKDIR /app',
          'COPY a.txt b.txt ./',
          'COPY dir ./dir',
          '# a comment between steps',
          'RUN cat a.txt b.txt > ab.txt \\',
          ' && ls dir > listing.txt',
          'FROM base',
          'WORKDIR /srv',
          'ENV X=1 Y=two',
          'COPY --from=build /app/ab.txt ./',
          'COPY --from=build /app/listing.txt ./renamed.txt',
          'COPY --from=build /app/dir ./nested/dir',
          'CMD ["run", "it"]',
        ].join('\n'),
      );
      const image = await buildDockerfile({ contextDir: context, workDir: path.join(root, 'work'), runEnv: { PATH: process.env.PATH } });
      expect(image.env).toEqual({ X: '1', Y: 'two' });
      expect(image.cmd).toEqual(['run', 'it']);
      expect((await readdir(image.dir, { recursive: true })).sort()).toEqual(['ab.txt', 'nested', 'nested/dir', 'nested/dir/c.txt', 'renamed.txt']);
      expect(await readFile(path.join(image.dir, 'ab.txt'), 'utf8')).toBe('AB');
      expect(await readFile(path.join(image.dir, 'renamed.txt'), 'utf8')).toBe('c.txt\n');
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it('fails with the output of a RUN step that fails', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'dockerfile-build-'));
    try {
      await writeFile(path.join(root, 'Dockerfile'), 'FROM base\nWORKDIR /app\nRUN echo compiling && exit 2\n');
      await expect(buildDockerfile({ contextDir: root, workDir: path.join(root, 'work'), runEnv: { PATH: process.env.PATH } })).rejects.toThrow(/exited 2:\ncompiling/);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
