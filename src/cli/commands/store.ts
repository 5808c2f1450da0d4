import { createReadStream } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { createSystemClock } from '../../clock';
import { missingRuntimeStore, openRuntimeStore } from '../../runtime/start/open-runtime-store';
import type { Store } from '../../store';
import { exportLine, parseStoreExport } from '../../store/store-export-lines';
import type { ImportSummary } from '../../store/store-transfer';
import type { CliCommand } from '../command';
import { messageOf, processIo, type CliIo } from '../output';
import { readFlags } from '../read-flags';
import { cliConfig } from '../runtime-client';

const USAGE = 'store export [--out FILE] | store import [--in FILE]';

/**
 * `intrabot store export` / `import`: moves everything a store holds (queued work, dedupe keys, kv,
 * claims, sealed secrets) to a store of another kind, as JSON lines (docs/operations.md, "Moving between
 * stores"). Run with the runtime stopped. Export writes the configured store to `--out` (stdout by
 * default); import reads `--in` (stdin by default), checks every line, and writes into the configured
 * store, which must be empty, all or nothing.
 */
export async function runStore(argv: string[], io: CliIo, stdin: NodeJS.ReadableStream = process.stdin): Promise<number> {
  const parsed = readFlags(argv, { out: { type: 'string' }, in: { type: 'string' } });
  const problem = typeof parsed === 'string' ? parsed : usageProblem(parsed.positionals, parsed.values);
  if (problem !== undefined || typeof parsed === 'string') {
    io.stderr(`intrabot store: ${problem}\nUsage: intrabot ${USAGE}\n`);
    return 2;
  }
  const config = cliConfig(io, 'store');
  if (!config) return 1;
  const action = parsed.positionals[0] as 'export' | 'import';
  try {
    if (action === 'export') {
      const missing = missingRuntimeStore(config);
      if (missing !== undefined) throw new Error(`there is no store to export: ${missing} does not exist`);
    }
    const store = await openRuntimeStore(config, createSystemClock(), io.env);
    try {
      if (!store.transfer) throw new Error(`the ${store.kind} store cannot be exported or imported`);
      if (action === 'export') await exportTo(store, parsed.values.out === undefined ? undefined : resolve(io.cwd, parsed.values.out), io);
      else await importFrom(store, parsed.values.in === undefined ? stdin : createReadStream(resolve(io.cwd, parsed.values.in)), io);
    } finally {
      await store.close();
    }
    return 0;
  } catch (error) {
    io.stderr(`intrabot store ${action}: ${messageOf(error)}\n`);
    return 1;
  }
}

function usageProblem(positionals: string[], values: { out?: string | undefined; in?: string | undefined }): string | undefined {
  const [action, extra] = positionals;
  if (action !== 'export' && action !== 'import') return action === undefined ? 'say export or import' : `unknown action "${action}" (export or import)`;
  if (extra !== undefined) return `unexpected argument "${extra}"`;
  if (action === 'export' && values.in !== undefined) return '--in is for import';
  if (action === 'import' && values.out !== undefined) return '--out is for export';
  return undefined;
}

/** To a file: written beside it and renamed once complete, so a file that exists is a whole export. */
async function exportTo(store: Store, file: string | undefined, io: CliIo): Promise<void> {
  let count = -1;
  if (file === undefined) {
    for await (const item of store.transfer!.export()) {
      io.stdout(exportLine(item));
      count += 1;
    }
  } else {
    const partial = `${file}.partial`;
    const handle = await open(partial, 'w', 0o600);
    try {
      for await (const item of store.transfer!.export()) {
        await handle.write(exportLine(item));
        count += 1;
      }
      await handle.sync();
    } catch (error) {
      await handle.close();
      await rm(partial, { force: true });
      throw error;
    }
    await handle.close();
    await rename(partial, file);
  }
  // on stderr: stdout may be the export itself
  io.stderr(`exported ${count} records from the ${store.kind} store${file === undefined ? '' : ` to ${file}`}\n`);
}

async function importFrom(store: Store, input: NodeJS.ReadableStream, io: CliIo): Promise<void> {
  const data = await parseStoreExport(createInterface({ input, crlfDelay: Infinity }));
  const summary = await store.transfer!.import(data);
  io.stdout(`imported ${describe(summary)} from a ${data.header.from} store into the ${store.kind} store\n`);
}

function describe(summary: ImportSummary): string {
  const parts = Object.entries(summary).map(([type, n]) => `${n} ${type}`);
  return parts.length === 0 ? 'nothing' : parts.join(', ');
}

export const command: CliCommand = {
  name: 'store',
  usage: USAGE,
  summary: 'Export the store as JSON lines, or import such an export into an empty store (moving between SQLite, Redis and PostgreSQL)',
  run: (args) => runStore(args, processIo()),
};
