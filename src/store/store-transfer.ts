import type { Clock } from '../clock';
import { IntrabotError } from '../errors';
import type { StoreBackend } from './backend';
import { deriveSecretKey, openSecret } from './secret-box';
import { SECRET_KEY_ENV, SecretUndecryptableError } from './store-errors';
import { recordsOfType, STORE_EXPORT_VERSION, type StoreExportHeader, type StoreRecord } from './store-records';

/** A checked export: its header and its records, in file order. */
export interface StoreExport {
  header: StoreExportHeader;
  records: StoreRecord[];
}

/** How many records of each type an import wrote. */
export type ImportSummary = Partial<Record<StoreRecord['type'], number>>;

/**
 * Moving a store's contents to another store (`intrabot store export` / `import`): the backend's `dump`
 * and `restore` do the engine's part; the checks shared by every backend are here.
 *
 * @example
 * for await (const item of from.transfer!.export()) write(JSON.stringify(item));
 * await to.transfer!.import(parseStoreExport(lines));
 */
export interface StoreTransfer {
  /** The header, then every record the store holds. */
  export(): AsyncIterable<StoreExportHeader | StoreRecord>;
  /**
   * Writes an export into this store, which must hold no data (`conflict` otherwise); the secrets must
   * open with this store's key (`secret_undecryptable` otherwise). Either refusal writes nothing, and so
   * does a failure part-way (the backend restores in one transaction).
   */
  import(data: StoreExport): Promise<ImportSummary>;
}

/** The transfer of an assembled store, or undefined for a backend without `dump` and `restore`. */
export function createStoreTransfer(backend: StoreBackend, deps: { clock: Clock; secretKey?: string | undefined }): StoreTransfer | undefined {
  const { dump, restore } = backend;
  if (!dump || !restore) return undefined;
  return {
    async *export() {
      const header: StoreExportHeader = {
        type: 'intrabot-store',
        version: STORE_EXPORT_VERSION,
        from: backend.kind,
        schema: await backend.schemaVersion(),
        exported_at: Math.floor(deps.clock.now()),
      };
      yield header;
      yield* dump.call(backend);
    },
    async import(data) {
      await refuseNonEmpty(backend);
      checkSecretsOpen(data.records, deps.secretKey);
      await restore.call(backend, data.records);
      return summarise(data.records);
    },
  };
}

/** A target that holds anything but its own salt is refused: merging two stores' queues and secrets is not an import. */
async function refuseNonEmpty(backend: StoreBackend): Promise<void> {
  for await (const record of backend.dump!()) {
    if (record.type === 'secret_salt') continue;
    throw new IntrabotError(
      'conflict',
      `the target ${backend.kind} store is not empty (it holds ${record.type} records): import into a new, empty store (nothing was written)`,
    );
  }
}

/**
 * Every exported secret is opened with the key the target will use and the source's salt, before anything
 * is written: a wrong key would otherwise leave secrets that no one can read. The plaintexts are dropped
 * at once; the sealed values are what is written.
 */
function checkSecretsOpen(records: readonly StoreRecord[], secretKey: string | undefined): void {
  const secrets = recordsOfType(records, 'secret');
  if (secrets.length === 0) return;
  if (secretKey === undefined || secretKey.trim() === '') {
    throw new IntrabotError(
      'secret_key_missing',
      `the export holds ${secrets.length} sealed secrets: set ${SECRET_KEY_ENV} to the key the source store ran with (nothing was written)`,
    );
  }
  const salt = recordsOfType(records, 'secret_salt').at(-1);
  const key = deriveSecretKey(secretKey, Buffer.from(salt?.salt ?? '', 'base64'));
  for (const secret of secrets) {
    try {
      openSecret(key, secret.name, secret.sealed);
    } catch (cause) {
      throw new IntrabotError(
        'secret_undecryptable',
        `the configured ${SECRET_KEY_ENV} does not open the exported secret "${secret.name}": import with the key the source store ran with (nothing was written)`,
        { cause: cause instanceof SecretUndecryptableError ? cause : undefined, details: { name: secret.name } },
      );
    }
  }
}

function summarise(records: readonly StoreRecord[]): ImportSummary {
  const counts: ImportSummary = {};
  for (const record of records) counts[record.type] = (counts[record.type] ?? 0) + 1;
  return counts;
}
