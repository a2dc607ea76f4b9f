import { readFileSync } from 'node:fs';

/** A zombie (Z) or dead (X) process counts as gone: signal 0 succeeds on one until reaped (seconds later in some containers). */
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
