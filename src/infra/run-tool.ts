import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/** A provisioning command, with room for a Go build's, Maven's or apt's output. */
export const run = (file: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) =>
  execFileAsync(file, args, { maxBuffer: 64 * 1024 * 1024, ...options });
