import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { performance } from 'node:perf_hooks';
import { isMainThread } from 'node:worker_threads';

/**
 * Who holds a claim: `<host>/<pid>/<start>/<random>`, one per open store. The host and the process id let
 * a process on the same host tell that the holder's process is gone (it crashed or was killed), so a lock
 * it held can be taken over at once instead of after its TTL. The process id alone is not enough: a
 * container restarted after a crash runs its new process on the same host name with the same id (often
 * 1), and a process id is reused in time; the start tells one process with that id from another.
 *
 * `<start>` is `k<ticks>`, the process's start in clock ticks since boot as the kernel reports it (Linux,
 * `/proc`; every thread of the process reads the same), else `t<ms>`, when the process's clock began
 * (`performance.timeOrigin`; read on the main thread only, since each worker thread has its own), else `-`
 * (unknown: judged by the process id alone, as an owner id of an older version is).
 */
export function newClaimOwner(self: ProcessIdentity = thisProcess()): string {
  return `${self.host}/${self.pid}/${self.start ?? '-'}/${randomUUID()}`;
}

/** A process as an owner id names it. */
export interface ProcessIdentity {
  host: string;
  pid: number;
  /** See `newClaimOwner`; undefined when unknown. */
  start: string | undefined;
}

/** What `ownerIsGone` asks of the host it runs on (tests pass their own). */
export interface OwnerProbe {
  /** This process. */
  self: ProcessIdentity;
  isAlive(pid: number): boolean;
  /** The start of the process that has `pid` now, when the host tells (`k<ticks>`); undefined otherwise. */
  startOf(pid: number): string | undefined;
}

/**
 * Whether the process behind `owner` is known to be gone. It ran on this host and:
 * - had this process's id but another start: this process took its id (a restarted container), so it is
 *   gone;
 * - had another id, and no process has that id any more, or the one that has it started at another time
 *   (the id was reused).
 * Anything else (another host, this very process, a start that cannot be compared, an owner id of an
 * older version whose process id is alive) is not known to be gone, and waits for the TTL.
 */
export function ownerIsGone(owner: string, probe: OwnerProbe = hostProbe()): boolean {
  const parsed = parseOwner(owner);
  if (!parsed || parsed.host !== probe.self.host) return false;
  if (parsed.pid === probe.self.pid) return comparable(parsed.start, probe.self.start) && parsed.start !== probe.self.start;
  if (!probe.isAlive(parsed.pid)) return true;
  const now = parsed.start === undefined ? undefined : probe.startOf(parsed.pid);
  return comparable(parsed.start, now) && parsed.start !== now;
}

/** Reads an owner id: `<host>/<pid>/<start>/<random>`, or `<host>/<pid>/<random>` of an older version. */
export function parseOwner(owner: string): ProcessIdentity | undefined {
  const parts = owner.split('/');
  if (parts.length < 3) return undefined;
  const withStart = parts.length >= 4 && /^(k\d+|t\d+|-)$/.test(parts.at(-2) ?? '');
  const pid = Number(parts.at(withStart ? -3 : -2));
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  const start = withStart && parts.at(-2) !== '-' ? parts.at(-2) : undefined;
  return { host: parts.slice(0, withStart ? -3 : -2).join('/'), pid, start };
}

/** Two starts tell processes apart only when both are known and counted the same way. */
function comparable(a: string | undefined, b: string | undefined): a is string {
  return a !== undefined && b !== undefined && a[0] === b[0];
}

/** This process, as its owner ids name it. */
export function thisProcess(): ProcessIdentity {
  const ticks = kernelStart(process.pid);
  const start = ticks ?? (isMainThread ? `t${Math.floor(performance.timeOrigin)}` : undefined);
  return { host: hostname(), pid: process.pid, start };
}

function hostProbe(): OwnerProbe {
  return { self: thisProcess(), isAlive: processIsAlive, startOf: kernelStart };
}

/** `k<ticks since boot>` of the process with `pid`, from `/proc/<pid>/stat` (field 22); undefined where there is no `/proc`. */
function kernelStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the command name (field 2) may hold spaces and parentheses: count fields after its closing one
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = fields[19];
    return ticks !== undefined && /^\d+$/.test(ticks) ? `k${ticks}` : undefined;
  } catch {
    return undefined;
  }
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
