import { spawn } from 'node:child_process';
import path from 'node:path';
import { PROJECT_ROOT } from '../../src/infra/tools';
import type { WriterJob } from './store-writer-ops';

/**
 * Runs one job in each of several writer processes (`script` in this folder, store-writer.ts unless named) against
 * the same database: all connect first, then all are told "go" together. Resolves to each one's result.
 * Throws unless every writer ran in a process of its own (not this one, not another writer's).
 */
export async function runWritersTogether<R, J extends { name: string } = WriterJob>(jobs: J[], script = 'store-writer.ts'): Promise<R[]> {
  const writers = jobs.map((job) => {
    const child = spawn(path.join(PROJECT_ROOT, 'node_modules', '.bin', 'tsx'), [path.join(__dirname, script), JSON.stringify(job)], {
      cwd: PROJECT_ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    const ready = new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d) => {
        out += d;
        if (out.startsWith('ready\n')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`writer ${job.name} exited (${code}) before it was ready: ${err}`)));
    });
    const done = new Promise<{ pid: number; result: R }>((resolve, reject) =>
      child.once('exit', (code) => {
        if (code !== 0) reject(new Error(`writer ${job.name} exited (${code}): ${err}`));
        else resolve(JSON.parse(out.slice('ready\n'.length)) as { pid: number; result: R });
      }),
    );
    done.catch(() => undefined /* reported where awaited */);
    return { child, ready, done };
  });
  await Promise.all(writers.map((w) => w.ready));
  for (const w of writers) w.child.stdin.end('go\n');
  const results = await Promise.all(writers.map((w) => w.done));
  const pids = new Set(results.map((r) => r.pid));
  if (pids.size !== writers.length || pids.has(process.pid)) throw new Error(`writers did not run in processes of their own: pids ${[...pids].join(', ')}`);
  return results.map((r) => r.result);
}
