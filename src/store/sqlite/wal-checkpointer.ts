import type { Database } from 'better-sqlite3';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * The worker's whole program (plain CommonJS, so it needs no TypeScript loader): its own connection to
 * the file, checkpointing the WAL into the database every few hundred ms.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path);
db.pragma('busy_timeout = 1000');
const timer = setInterval(() => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch { /* busy or closing: the next tick retries */ }
}, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export interface WalCheckpointer {
  stop(): Promise<void>;
}

/**
 * Moves WAL checkpoints off the event loop. With `synchronous = NORMAL` a commit only writes to the WAL;
 * the fsyncs happen at checkpoints, which SQLite otherwise runs inside whichever commit crosses 1000
 * pages: a webhook acknowledgement would then wait for two fsyncs. Here the main connection never
 * checkpoints; a worker thread does (PASSIVE: it never blocks a writer). Should the worker die, the
 * main connection takes automatic checkpoints back, so the WAL never grows without bound.
 */
export function startWalCheckpointer(db: Database, path: string, intervalMs: number): WalCheckpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver, path, intervalMs }, execArgv: [] });
  worker.unref();
  db.pragma('wal_autocheckpoint = 0');
  let stopping = false;
  const exited = new Promise<void>((resolve) => {
    worker.once('exit', () => {
      if (!stopping && db.open) db.pragma('wal_autocheckpoint = 1000');
      resolve();
    });
  });
  worker.on('error', () => undefined);
  return {
    async stop() {
      stopping = true;
      worker.postMessage('stop');
      const timeout = setTimeout(() => void worker.terminate(), 2_000);
      await exited;
      clearTimeout(timeout);
    },
  };
}
