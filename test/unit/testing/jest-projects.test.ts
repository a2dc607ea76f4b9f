import path from 'node:path';
import { buildArgv } from 'jest';
import { projectsOf, projectsToRun, testFiles, type TestProject } from '../../../scripts/test-selection';

const ROOT = path.resolve(__dirname, '../../..');
const { projects } = require('../../../jest.config.js') as { projects: TestProject[] };
const files = testFiles(ROOT);

async function run(...args: string[]): Promise<string[]> {
  return projectsToRun(await buildArgv(args), projects, ROOT, files).map((p) => p.displayName);
}

describe('jest projects', () => {
  it('puts every test file in exactly one project, by its folder', () => {
    expect(files.length).toBeGreaterThan(50);
    expect(files.filter((f) => projectsOf(f, projects).length !== 1)).toEqual([]);
    expect(projectsOf('test/unit/new-area/new.test.ts', projects).map((p) => p.displayName)).toEqual(['unit']);
    expect(projectsOf('test/replay.test.ts', projects).map((p) => p.displayName)).toEqual(['workflow']);
    expect(projectsOf('test/integration/deep/new.test.ts', projects).map((p) => p.displayName)).toEqual(['integration']);
  });

  it('gives servers to every project but unit', () => {
    expect(projects.filter((p) => !p.globalSetup).map((p) => p.displayName)).toEqual(['unit']);
  });

  it('runs every project with no arguments', async () => {
    expect(await run()).toEqual(['unit', 'workflow', 'integration', 'e2e']);
  });

  it('runs only the selected projects', async () => {
    expect(await run('--selectProjects', 'unit')).toEqual(['unit']);
    expect(await run('--selectProjects', 'unit', 'e2e')).toEqual(['unit', 'e2e']);
    expect(await run('--ignoreProjects', 'e2e', 'integration')).toEqual(['unit', 'workflow']);
  });

  it('runs only the projects whose files match the path patterns, as jest matches them', async () => {
    expect(await run('test/unit')).toEqual(['unit']);
    expect(await run('test/unit/limits', '-t', 'integration')).toEqual(['unit']);
    expect(await run('delivery-races')).toEqual(['integration']);
    expect(await run('replay')).toEqual(['workflow']);
    expect(await run('--selectProjects', 'unit', '--testPathPatterns', 'test/integration')).toEqual([]);
  });

  it('counts every project when another config or project list is given', async () => {
    expect(await run('--config', 'jest.config.js', '--selectProjects', 'unit')).toEqual(['unit', 'workflow', 'integration', 'e2e']);
  });
});
