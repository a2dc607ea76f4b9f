import { spawnSync } from 'node:child_process';
import path from 'node:path';

/** The layer lint (.dependency-cruiser.cjs): dependencies point inward, workflows stay deterministic. */
const ROOT = path.resolve(__dirname, '..', '..', '..');
const depcruise = (cwd: string, paths: string[]) =>
  spawnSync(path.join(ROOT, 'node_modules', '.bin', 'depcruise'), [...paths, '--config', path.join(ROOT, '.dependency-cruiser.cjs'), '--output-type', 'err'], {
    cwd,
    encoding: 'utf8',
    // Plain text whatever the caller's terminal or CI says: the assertions read rule and file together.
    env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
  });

describe('layer lint', () => {
  it('finds no wrong-way import in the code', () => {
    const run = depcruise(ROOT, ['src', 'workflows', 'activities']);
    expect(run.stdout + run.stderr).toContain('no dependency violations found');
    expect(run.status).toBe(0);
  });

  it('refuses a domain module that imports persistence or node:dns, and workflow code that imports node:fs', () => {
    const run = depcruise(path.join(ROOT, 'test', 'fixtures', 'wrong-way-imports'), ['src', 'workflows']);
    expect(run.status).not.toBe(0);
    expect(run.stdout).toContain('domain-imports-nothing-outward');
    expect(run.stdout).toContain('domain-does-no-io: src/domain/lookup.ts');
    expect(run.stdout).toContain('workflows-are-deterministic');
  });
});
