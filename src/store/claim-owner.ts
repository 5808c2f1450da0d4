import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';

/**
 * Who holds a claim: `<host>/<pid>/<random>`, one per open store. The host and the process id let a
 * process on the same host tell that the holder's process is gone (it crashed or was killed), so a lock
 * it held can be taken over at once instead of after its TTL.
 */
export function newClaimOwner(): string {
  return `${hostname()}/${process.pid}/${randomUUID()}`;
}

/**
 * Whether the process behind `owner` is known to be gone: it ran on this host, is not this process, and
 * no process has its id any more. Anything else (another host, an owner id of an older version, a
 * process id now reused by another process) is not known to be gone, and waits for the TTL.
 */
export function ownerIsGone(owner: string, isAlive: (pid: number) => boolean = processIsAlive): boolean {
  const parts = owner.split('/');
  if (parts.length < 3) return false;
  const pid = Number(parts.at(-2));
  const host = parts.slice(0, -2).join('/');
  if (host !== hostname() || !Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  return !isAlive(pid);
}

function processIsAlive(pid: number): boolean {
  try {
    // signal 0 checks for the process without touching it
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}
