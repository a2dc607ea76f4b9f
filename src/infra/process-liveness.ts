import { readFileSync } from 'node:fs';

/**
 * Whether a process on this host is still running. `kill(pid, 0)` alone is not enough: a process
 * killed with SIGKILL stays a zombie until its parent (or init) reaps it, seconds later in some
 * containers, and signal 0 succeeds on a zombie. So on Linux a zombie (state Z) or dead (X)
 * process counts as gone.
 */
export function isProcessRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !['Z', 'X'].includes(linuxProcessState(pid) ?? '');
}

/** The state letter of /proc/<pid>/stat (after the parenthesised command, which may hold spaces), or undefined off Linux. */
export function linuxProcessState(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.lastIndexOf(')') + 2;
    return stat.slice(state, state + 1);
  } catch {
    return undefined;
  }
}
