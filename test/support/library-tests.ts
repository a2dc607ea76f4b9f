import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Runs a library's own test command (a receiver library, an SDK); resolves with its output, rejects (with the output) when it fails. */
export async function libraryTests(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<string> {
  try {
    const { stdout } = await run(command, args, { cwd, env: { ...process.env, ...env }, maxBuffer: 64 << 20 });
    return stdout;
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} failed:\n${e.stdout ?? ''}\n${e.stderr ?? ''}`);
  }
}
