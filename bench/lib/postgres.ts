import { readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';
import { safeTarget } from '../../src/store/postgres/postgres-store';

/** The PostgreSQL of the ingest bench: `INTRABOT_BENCH_DATABASE_URL`, else the tests' `INTRABOT_TEST_DATABASE_URL`, else the local default. */
export function benchDatabaseUrl(env: NodeJS.ProcessEnv = process.env): string {
  return env.INTRABOT_BENCH_DATABASE_URL?.trim() || env.INTRABOT_TEST_DATABASE_URL?.trim() || 'postgres://postgres@127.0.0.1:5432/test';
}

/** Why PostgreSQL at `url` cannot be used, or undefined when it answers (said in the bench's output, which then skips its sides). */
export async function postgresUnreachable(url: string): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return undefined;
  } catch (error) {
    return `PostgreSQL at ${safeTarget(url)} is not reachable (${error instanceof Error ? error.message : String(error)})`;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Drops a schema a run made (intrabot's or the peer's). */
export async function dropSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

const TICK_US = 1e6 / 100;

/**
 * CPU time the local PostgreSQL server's processes have used, in µs (user + system of every process named
 * `postgres`, from /proc; clock ticks of 10 ms). A phase's difference is the server's work of that phase,
 * and of any other client; a backend that exited during the phase takes its time with it, so the
 * connections are kept open (both pools do). 0 when the server is not on this machine.
 */
export function postgresCpuUs(): number {
  let ticks = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      if (!stat.slice(stat.indexOf('(') + 1, close).startsWith('postgres')) continue;
      const fields = stat.slice(close + 2).split(' ');
      // fields from the third of stat(5): utime is its 14th, stime its 15th
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // the process ended meanwhile
    }
  }
  return ticks * TICK_US;
}
