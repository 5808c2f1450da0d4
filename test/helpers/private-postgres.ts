import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port';

/** Printed when the fault tests that need a PostgreSQL server of their own are skipped. */
export const PRIVATE_POSTGRES_SKIP_REASON =
  "skipping the PostgreSQL fault tests: they start a server of their own and need PostgreSQL's initdb and pg_ctl (Debian: apt install postgresql)";

/**
 * A PostgreSQL server of one test's own, in a temporary directory on a free port: a test may stop,
 * restart or cut it without touching the shared server other test files use at the same time. About a
 * second to create (`initdb`), a fifth of one to restart.
 */
export interface PrivatePostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres`. */
  readonly url: string;
  stop(mode?: 'fast' | 'immediate'): void;
  start(): void;
  /** Stops and starts it: every connection is closed, as `pg_ctlcluster ... restart` does. */
  restart(): void;
  close(): void;
}

/** The directory of PostgreSQL's server programs, or undefined when none is installed. */
function serverBinaries(): string | undefined {
  try {
    const dir = execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim();
    if (existsSync(join(dir, 'initdb'))) return dir;
  } catch {
    // no pg_config on PATH: look where Debian puts the servers
  }
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  return versions.map((v) => join(root, v, 'bin')).find((dir) => existsSync(join(dir, 'initdb')));
}

/**
 * Starts a private PostgreSQL, or answers undefined (the reason printed) when the server programs are
 * missing; under CI a missing server is an error, not a skip. As root, the server runs as the
 * `postgres` user (initdb refuses root).
 */
export async function startPrivatePostgres(): Promise<PrivatePostgres | undefined> {
  const bin = serverBinaries();
  if (!bin) {
    if (process.env.CI === 'true') throw new Error(`CI=true but ${PRIVATE_POSTGRES_SKIP_REASON}`);
    console.warn(PRIVATE_POSTGRES_SKIP_REASON);
    return undefined;
  }
  const dir = mkdtempSync(join(tmpdir(), 'intrabot-pg-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot)
    chownSync(dir, Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })), Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' })));
  const run = (program: string, args: string[]): void => {
    const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, program), ...args]] : [join(bin, program), args];
    execFileSync(file, argv, { stdio: 'ignore', timeout: 30_000 });
  };
  const data = join(dir, 'data');
  const port = await freePort();
  run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=50`;
  const server: PrivatePostgres = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start: () => run('pg_ctl', ['-D', data, '-o', options, '-w', 'start']),
    stop: (mode = 'fast') => run('pg_ctl', ['-D', data, '-m', mode, '-w', 'stop']),
    restart: () => run('pg_ctl', ['-D', data, '-o', options, '-m', 'fast', '-w', 'restart']),
    close: () => {
      try {
        server.stop('immediate');
      } catch {
        // stopped already
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  server.start();
  return server;
}
