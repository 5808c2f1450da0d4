import Database from 'better-sqlite3';
import type { Database as Db } from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Clock } from '../../clock';
import { assembleStore } from '../assemble-store';
import type { StoreBackend } from '../backend';
import { DEFAULT_DEDUPE_TTL_MS } from '../inbox';
import { newClaimOwner } from '../claim-owner';
import { releaseLeasesOfGoneOwners } from './gone-leases';
import type { Store } from '../store';
import { StoreUnavailableError } from '../store-errors';
import { SQLITE_MIGRATIONS, currentVersion, migrate } from './migrations';
import { SqliteClaims } from './sqlite-claims';
import { SqliteInbox } from './sqlite-inbox';
import { SqliteKvSpace, prepareKv } from './sqlite-kv';
import { SqliteQueue } from './sqlite-queue';
import { SqliteRate } from './sqlite-rate';
import { sqliteSecretStorage } from './sqlite-secrets';
import { sqliteTransfer } from './sqlite-transfer';
import { startWalCheckpointer } from './wal-checkpointer';

export interface SqliteStoreOptions {
  /** A file (`<dataDir>/intrabot.db`) or `:memory:`. */
  path: string;
  clock: Clock;
  /** `INTRABOT_SECRET_KEY` (or the sandbox key file's content); without it, secrets cannot be used. */
  secretKey?: string | undefined;
  dedupeTtlMs?: number;
  /** `NORMAL` (default) or `FULL`; see `openSqliteStore`. */
  synchronous?: 'NORMAL' | 'FULL';
  /** Checkpoint the WAL from a worker thread every this many ms (default 250; 0: SQLite's own, in-line). */
  checkpointIntervalMs?: number;
  /** The inbox batcher's window (default 0: group commit per event-loop turn) and size cap (default 512). */
  inboxBatchWindowMs?: number;
  inboxMaxBatch?: number;
}

/** Counters for /metrics and tests. */
export interface SqliteStoreStats {
  inboxBatches: number;
  inboxAccepts: number;
}

export type SqliteStore = Store & {
  readonly stats: SqliteStoreStats;
  readonly db: Db;
  /** Forgets the dedupe keys past their TTL now (the store's sweeper does it every minute). */
  sweepInbox(): void;
  /** Dedupe keys held in memory (tests). */
  liveDedupeKeys(): number;
};

/**
 * Opens (creating when missing) the embedded store: one SQLite file in WAL mode.
 *
 * Durability: `synchronous = NORMAL` by default. In WAL mode every commit is written to the WAL file
 * before it returns, so it survives the process being killed at any point (SIGKILL, OOM, a crash): what
 * was acknowledged is there after restart (test/store/kill.test.ts checks exactly that). Only an
 * operating-system crash or power loss can roll back the last commits (never corrupt the file). FULL
 * closes that gap with an fsync per commit, but better-sqlite3 is synchronous: every fsync (5-10 ms on
 * ordinary disks) would stall the whole event loop, webhook acknowledgements included, and miss the
 * ingest targets. A deployment that must survive power loss uses `synchronous: 'FULL'` or the Redis
 * store with `appendfsync always`.
 */
export function openSqliteStore(options: SqliteStoreOptions): SqliteStore {
  const db = openDatabase(options.path, options.synchronous ?? 'NORMAL');
  try {
    migrate(db, SQLITE_MIGRATIONS);
  } catch (error) {
    db.close();
    throw error;
  }
  return assemble(db, options);
}

function openDatabase(path: string, synchronous: 'NORMAL' | 'FULL'): Db {
  try {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    const db = new Database(path);
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${synchronous}`);
    // another process holding the write lock briefly (a second runtime on the same file) is waited for
    db.pragma('busy_timeout = 5000');
    // 16 MB of page cache (the default is 2 MB): index pages of a busy inbox stay in memory
    db.pragma('cache_size = -16000');
    return db;
  } catch (cause) {
    throw new StoreUnavailableError(`cannot open the SQLite store at ${path}`, { cause });
  }
}

function assemble(db: Db, options: SqliteStoreOptions): SqliteStore {
  const { clock } = options;
  const owner = newClaimOwner();
  // entries a crashed process on this host left leased are due now, not when their leases run out (a
  // failure, say another process holding the file busy, only leaves them to run out as before)
  try {
    releaseLeasesOfGoneOwners(db, clock.now());
  } catch {
    // nothing lost: the leases end on their own
  }
  const stats: SqliteStoreStats = { inboxBatches: 0, inboxAccepts: 0 };
  const inbox = new SqliteInbox(db, clock, {
    owner,
    dedupeTtlMs: options.dedupeTtlMs ?? DEFAULT_DEDUPE_TTL_MS,
    batchWindowMs: options.inboxBatchWindowMs ?? 0,
    maxBatch: options.inboxMaxBatch ?? 512,
    onBatchCommit: (size) => {
      stats.inboxBatches += 1;
      stats.inboxAccepts += size;
    },
  });
  const kvSql = prepareKv(db);
  const sweeper = startSweeper(db, clock, () => inbox.sweep());
  const interval = options.checkpointIntervalMs ?? 250;
  const checkpointer = options.path === ':memory:' || interval <= 0 ? undefined : startWalCheckpointer(db, options.path, interval);
  let closed = false;
  // a read of the file (not a constant): it fails when the file cannot be read, or the handle is closed
  const probe = db.prepare('SELECT MAX(version) AS version FROM schema_version');
  const backend: StoreBackend = {
    kind: 'sqlite',
    inbox,
    outbox: new SqliteQueue(db, 'outbox', clock, owner),
    claims: new SqliteClaims(db, owner, clock),
    rate: new SqliteRate(db, clock),
    secrets: sqliteSecretStorage(db, clock),
    kv: (namespace) => new SqliteKvSpace(kvSql, namespace, clock),
    schemaVersion: async () => currentVersion(db),
    ping: async () => {
      probe.get();
    },
    ...sqliteTransfer(db, clock),
    close: async () => {
      if (closed) return;
      closed = true;
      clearInterval(sweeper);
      inbox.flush();
      await checkpointer?.stop();
      db.close();
    },
  };
  return Object.assign(assembleStore(backend, { clock, secretKey: options.secretKey }), {
    db,
    stats,
    sweepInbox: () => inbox.sweep(),
    liveDedupeKeys: () => inbox.liveDedupeKeys,
  });
}

/**
 * Expired dedupe keys, kv rows and claims are invisible already (every read compares with the clock);
 * this only reclaims their space, so a real timer is fine.
 */
function startSweeper(db: Db, clock: Clock, sweepInbox: () => void): ReturnType<typeof setInterval> {
  const sweep = db.transaction((now: number) => {
    db.prepare('DELETE FROM kv WHERE expires_at IS NOT NULL AND expires_at <= ?').run(now);
    db.prepare('DELETE FROM claims WHERE expires_at <= ?').run(now);
  });
  const timer = setInterval(() => {
    try {
      sweep(clock.now());
      sweepInbox();
    } catch {
      // busy (another process writing) or closing: the next sweep catches up
    }
  }, 60_000);
  timer.unref();
  return timer;
}
