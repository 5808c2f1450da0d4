import pg from 'pg';
import { newSalt } from '../secret-box';
import { StoreUnavailableError } from '../store-errors';

export interface PostgresMigration {
  version: number;
  description: string;
  /** The DDL, given the quoted schema name. */
  up: (schema: string) => string;
}

/** A durable queue's table (`inbox`, `outbox`): the same columns as SQLite's, times as float8 milliseconds on the store's clock. */
const queueTable = (s: string, name: string): string => `
  CREATE TABLE ${s}.${name} (
    id text COLLATE "C" PRIMARY KEY,
    seq bigint NOT NULL DEFAULT nextval('${s}.entry_seq'),
    target text COLLATE "C" NOT NULL,
    payload text NOT NULL,
    dead boolean NOT NULL DEFAULT false,
    not_before float8 NOT NULL,
    available_at float8 NOT NULL,
    lease_until float8 NOT NULL DEFAULT 0,
    lease_token text,
    attempts integer NOT NULL DEFAULT 0,
    lost_leases integer NOT NULL DEFAULT 0,
    last_error text,
    dead_reason text,
    enqueued_at float8 NOT NULL
  );
  CREATE INDEX ${name}_due ON ${s}.${name} (available_at, seq) WHERE NOT dead;
  CREATE INDEX ${name}_order ON ${s}.${name} (dead, seq);`;

/**
 * Append only: a released migration is never edited, a change is a new version. Keys are `COLLATE "C"`,
 * so listings sort byte-wise as in the other stores whatever the database's locale. Payloads are text,
 * not jsonb: an entry that cannot be read must still be stored and listed (the poison-entry rules).
 */
export const POSTGRES_MIGRATIONS: readonly PostgresMigration[] = [
  {
    version: 1,
    description: 'meta, key-value spaces, claims, secrets, delivery dedupe, rate log, the inbox and the outbox',
    up: (s) => `
      CREATE TABLE ${s}.meta (key text COLLATE "C" PRIMARY KEY, value text NOT NULL);
      INSERT INTO ${s}.meta (key, value) VALUES ('secret_salt', '${newSalt().toString('base64')}');
      CREATE TABLE ${s}.kv (namespace text COLLATE "C" NOT NULL, key text COLLATE "C" NOT NULL, value text NOT NULL, expires_at float8,
        PRIMARY KEY (namespace, key));
      CREATE INDEX kv_expiry ON ${s}.kv (expires_at) WHERE expires_at IS NOT NULL;
      CREATE TABLE ${s}.claims (key text COLLATE "C" PRIMARY KEY, owner text NOT NULL, expires_at float8 NOT NULL);
      CREATE TABLE ${s}.secrets (name text COLLATE "C" PRIMARY KEY, sealed text NOT NULL, updated_at float8 NOT NULL);
      CREATE TABLE ${s}.dedupe (key text COLLATE "C" PRIMARY KEY, expires_at float8 NOT NULL);
      CREATE INDEX dedupe_expiry ON ${s}.dedupe (expires_at);
      CREATE TABLE ${s}.rate_log (key text COLLATE "C" PRIMARY KEY, stamps text NOT NULL);
      CREATE SEQUENCE ${s}.entry_seq;
      ${queueTable(s, 'inbox')}
      ${queueTable(s, 'outbox')}
      CREATE INDEX outbox_line ON ${s}.outbox (target, seq) WHERE NOT dead;`,
  },
  {
    version: 2,
    description: "outbox: each line's head marked, so a reservation reads only heads, however deep the lines",
    up: (s) => outboxHeads(s),
  },
];

/**
 * Version 2: `outbox.head` is true for the first live entry of each line (the only one a reservation may
 * hand out), kept by triggers in the database, so every writer keeps it, an older replica still running
 * during an upgrade included. A write that puts an entry in a line (insert, a move to another line, a
 * revived dead letter) marks it head when nothing live is before it; one that takes the head out
 * (complete, dead letter, a move) marks the next. Both take the line's advisory lock, the one every
 * enqueue holds, so an enqueue racing the head's completion cannot leave a line without a head. Each
 * query in a trigger sees what committed before it ran (the functions are volatile).
 */
function outboxHeads(s: string): string {
  // the lock key the queue code uses: `intrabot:line:<schema>:<target>` (schema names are plain identifiers)
  const lineKey = (target: string): string => `hashtextextended('intrabot:line:${s.slice(1, -1)}:' || ${target}, 0)`;
  const moved = 'OLD.target IS DISTINCT FROM NEW.target OR OLD.seq IS DISTINCT FROM NEW.seq OR OLD.dead IS DISTINCT FROM NEW.dead';
  return `
    ALTER TABLE ${s}.outbox ADD COLUMN head boolean NOT NULL DEFAULT false;
    UPDATE ${s}.outbox o SET head = true
      WHERE NOT o.dead AND NOT EXISTS (SELECT 1 FROM ${s}.outbox p WHERE p.target = o.target AND NOT p.dead AND p.seq < o.seq);
    CREATE INDEX outbox_heads ON ${s}.outbox (available_at, seq) WHERE head AND NOT dead;
    CREATE FUNCTION ${s}.outbox_mark_head() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_advisory_xact_lock(${lineKey('NEW.target')});
      NEW.head := NOT NEW.dead AND NOT EXISTS (
        SELECT 1 FROM ${s}.outbox p WHERE p.target = NEW.target AND NOT p.dead AND p.seq < NEW.seq AND p.id <> NEW.id);
      RETURN NEW;
    END $$;
    CREATE FUNCTION ${s}.outbox_next_head() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE next_id text;
    BEGIN
      IF NOT OLD.head THEN RETURN NULL; END IF;
      PERFORM pg_advisory_xact_lock(${lineKey('OLD.target')});
      SELECT id INTO next_id FROM ${s}.outbox WHERE target = OLD.target AND NOT dead ORDER BY seq LIMIT 1;
      IF next_id IS NOT NULL THEN UPDATE ${s}.outbox SET head = true WHERE id = next_id AND NOT head; END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER outbox_head_on_insert BEFORE INSERT ON ${s}.outbox FOR EACH ROW EXECUTE FUNCTION ${s}.outbox_mark_head();
    CREATE TRIGGER outbox_head_on_move BEFORE UPDATE OF target, seq, dead ON ${s}.outbox FOR EACH ROW
      WHEN (${moved}) EXECUTE FUNCTION ${s}.outbox_mark_head();
    CREATE TRIGGER outbox_next_head_on_delete AFTER DELETE ON ${s}.outbox FOR EACH ROW EXECUTE FUNCTION ${s}.outbox_next_head();
    CREATE TRIGGER outbox_next_head_on_move AFTER UPDATE OF target, seq, dead ON ${s}.outbox FOR EACH ROW
      WHEN (${moved}) EXECUTE FUNCTION ${s}.outbox_next_head();`;
}

export const POSTGRES_SCHEMA_VERSION = POSTGRES_MIGRATIONS.length;

/** The schema's version: 0 when the schema or its version table is missing. */
export async function postgresSchemaVersion(db: pg.Pool | pg.ClientBase, schema: string): Promise<number> {
  const exists = await db.query<{ t: string | null }>('SELECT to_regclass($1) AS t', [`"${schema}".schema_migrations`]);
  if (exists.rows[0]?.t == null) return 0;
  const { rows } = await db.query<{ v: number | null }>(`SELECT max(version) AS v FROM "${schema}".schema_migrations`);
  return rows[0]?.v ?? 0;
}

/**
 * Brings the schema to the newest version (creating it when missing), each migration in its own
 * transaction, under a session advisory lock keyed by the schema's name: replicas starting together
 * queue on the lock and find the work done. Idempotent; refuses a schema written by a newer intrabot.
 * On a connection of its own, without the pool's 5 s query time-out: waiting for another replica's
 * migration, or a long one, is not a hung server.
 */
export async function migratePostgres(url: string, schema: string, migrations = POSTGRES_MIGRATIONS): Promise<{ from: number; to: number }> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  client.on('error', () => undefined);
  await client.connect();
  const lock = `intrabot:migrate:${schema}`;
  try {
    await client.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [lock]);
    try {
      const from = refuseNewer(await postgresSchemaVersion(client, schema), schema);
      const s = `"${schema}"`;
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
      await client.query(`CREATE TABLE IF NOT EXISTS ${s}.schema_migrations (version integer PRIMARY KEY, description text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now())`);
      for (const migration of migrations.filter((m) => m.version > from)) await applyOne(client, s, migration);
      return { from, to: Math.max(from, migrations.at(-1)?.version ?? 0) };
    } finally {
      await client.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [lock]);
    }
  } finally {
    await client.end();
  }
}

async function applyOne(client: pg.Client, s: string, migration: PostgresMigration): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query(migration.up(s));
    await client.query(`INSERT INTO ${s}.schema_migrations (version, description) VALUES ($1, $2)`, [migration.version, migration.description]);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  }
}

/** At open without migrating (`--no-migrate`): a schema behind the code is refused, naming the command that fixes it. */
export async function checkPostgresSchema(pool: pg.Pool, schema: string): Promise<number> {
  const found = refuseNewer(await postgresSchemaVersion(pool, schema), schema);
  if (found < POSTGRES_SCHEMA_VERSION) {
    throw new StoreUnavailableError(
      `the PostgreSQL schema "${schema}" is at version ${found}, behind this intrabot (${POSTGRES_SCHEMA_VERSION}): run intrabot migrate first`,
    );
  }
  return found;
}

function refuseNewer(found: number, schema: string): number {
  if (found > POSTGRES_SCHEMA_VERSION) {
    throw new StoreUnavailableError(`the PostgreSQL schema "${schema}" is at version ${found}, newer than this intrabot (${POSTGRES_SCHEMA_VERSION})`);
  }
  return found;
}
