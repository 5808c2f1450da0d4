import pg from 'pg';
import type { Clock } from '../../clock';
import { assembleStore } from '../assemble-store';
import { boundedPing } from '../bounded-ping';
import type { StoreBackend } from '../backend';
import { newClaimOwner } from '../claim-owner';
import { DEFAULT_DEDUPE_TTL_MS } from '../inbox';
import type { Store } from '../store';
import { StoreUnavailableError } from '../store-errors';
import { PostgresClaims } from './postgres-claims';
import { PostgresInbox } from './postgres-inbox';
import { PostgresKvSpace } from './postgres-kv';
import { checkPostgresSchema, migratePostgres, postgresSchemaVersion } from './postgres-migrations';
import { PostgresQueue } from './postgres-queue';
import { PostgresRate } from './postgres-rate';
import { postgresSecretStorage } from './postgres-secrets';
import { postgresTransfer } from './postgres-transfer';
import { PostgresWakeups } from './postgres-wakeups';

// The client is node-postgres (`pg`): measured against `postgres` (porsager) on the same server, 5,000
// accepts in batches of 64 then reserve-and-complete, the two were within noise of each other (accept
// 17-24k/s vs 16-25k/s, reserve+complete 2.4-3.0k/s vs 2.3-2.6k/s); `pg` is the more widely run, ships
// its types, and hands out a connection of its own when one is needed (the migration's session lock, LISTEN).

export interface PostgresStoreOptions {
  /** `INTRABOT_DATABASE_URL`, e.g. `postgres://intrabot@db:5432/intranet`. */
  url: string;
  /** The schema of intrabot's tables (`INTRABOT_DATABASE_SCHEMA`, default `intrabot`); replicas of one deployment share it. */
  schema?: string;
  /** Migrate at open (default); false refuses a schema that is behind (`intrabot start --no-migrate`). */
  migrate?: boolean;
  clock: Clock;
  secretKey?: string | undefined;
  dedupeTtlMs?: number;
}

export type PostgresStore = Store & { readonly pool: pg.Pool; readonly schema: string };

/**
 * Connects, brings the schema up to date (or checks it is, with `migrate: false`) and returns the store
 * for several replicas. A server that does not answer is `store_unavailable`, naming the host and
 * database only, never the password.
 *
 * @example
 * const store = await openPostgresStore({ url: process.env.INTRABOT_DATABASE_URL!, clock, secretKey });
 */
export async function openPostgresStore(options: PostgresStoreOptions): Promise<PostgresStore> {
  const schema = options.schema ?? 'intrabot';
  const pool = await connect(options.url);
  try {
    if (options.migrate === false) await checkPostgresSchema(pool, schema);
    else await migratePostgres(options.url, schema);
  } catch (error) {
    await pool.end();
    throw error;
  }
  return assemble(pool, schema, options);
}

/** `intrabot migrate`: the schema brought up to date under the advisory lock, and the versions before and after. */
export async function migratePostgresStore(url: string, schema = 'intrabot'): Promise<{ from: number; to: number }> {
  // reached first through a pool, so an unreachable server is told as at open
  await (await connect(url)).end();
  return migratePostgres(url, schema);
}

/** A pool whose first connection answered. */
async function connect(url: string): Promise<pg.Pool> {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    connectionTimeoutMillis: 3_000,
    // a hung server fails a query after 5 s: a route answers 503 instead of holding its caller
    query_timeout: 5_000,
    idleTimeoutMillis: 30_000,
  });
  // a connection the server closed (idle in the pool, or checked out between two queries) says so by an
  // 'error' event: unheard, it would end the process. The query in progress fails on its own, and the
  // pool opens a new connection for the next one.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  try {
    await pool.query('SELECT 1');
    return pool;
  } catch (cause) {
    await pool.end().catch(() => undefined);
    throw new StoreUnavailableError(`cannot reach PostgreSQL at ${safeTarget(url)}`, { cause });
  }
}

/** Host and database of the URL: it may carry a password. */
export function safeTarget(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.host}${parsed.pathname}`;
  } catch {
    return '(unparseable INTRABOT_DATABASE_URL)';
  }
}

function assemble(pool: pg.Pool, schema: string, options: PostgresStoreOptions): PostgresStore {
  const { clock } = options;
  const wakeups = new PostgresWakeups(options.url, schema);
  const inbox = new PostgresInbox(pool, schema, clock, wakeups.channel, options.dedupeTtlMs ?? DEFAULT_DEDUPE_TTL_MS);
  const sweeper = startSweeper(pool, schema, clock);
  let closed = false;
  const backend: StoreBackend = {
    kind: 'postgres',
    inbox,
    outbox: new PostgresQueue(pool, schema, 'outbox', clock, wakeups.channel),
    claims: new PostgresClaims(pool, schema, newClaimOwner(), clock),
    rate: new PostgresRate(pool, schema, clock),
    secrets: postgresSecretStorage(pool, schema, clock),
    kv: (namespace) => new PostgresKvSpace(pool, schema, namespace, clock),
    schemaVersion: () => postgresSchemaVersion(pool, schema),
    ping: () => boundedPing('PostgreSQL', () => pool.query(`SELECT 1 FROM "${schema}".meta LIMIT 1`)),
    watch: (listener) => wakeups.add(listener),
    ...postgresTransfer(pool, schema, clock),
    close: async () => {
      if (closed) return;
      closed = true;
      clearInterval(sweeper);
      // the accepts waiting for their turn are committed and answered before the connections go
      await inbox.drain();
      await wakeups.close();
      await pool.end();
    },
  };
  return Object.assign(assembleStore(backend, { clock, secretKey: options.secretKey }), { pool, schema });
}

/**
 * Expired dedupe keys, kv rows and claims are invisible already (every read compares with the clock);
 * this only reclaims their space, so a real timer is fine, and a failed sweep is caught up by the next.
 */
function startSweeper(pool: pg.Pool, schema: string, clock: Clock): ReturnType<typeof setInterval> {
  const s = `"${schema}"`;
  const timer = setInterval(() => {
    const now = clock.now();
    void pool
      .query(
        `WITH d AS (DELETE FROM ${s}.dedupe WHERE expires_at <= $1), k AS (DELETE FROM ${s}.kv WHERE expires_at <= $1)
         DELETE FROM ${s}.claims WHERE expires_at <= $1`,
        [now],
      )
      .catch(() => undefined);
  }, 60_000);
  timer.unref();
  return timer;
}
