import { z } from 'zod';
import { parseOrThrow } from '../validation';
import { deriveSecretKey, openSecret, sealSecret } from './secret-box';
import { SecretKeyMissingError } from './store-errors';

export const SecretNameSchema = z.string().min(1);

/**
 * Secrets at rest (webhook signing secrets, incoming webhook URLs, tokens): encrypted with the key from
 * `INTRABOT_SECRET_KEY` (see `deriveSecretKey`), decrypted only on `get`. A value never appears in an
 * error or log; a wrong key gives `secret_undecryptable`.
 *
 * @example
 * await store.secrets.put(`webhook:${tenant}:${bot}`, signingSecret);
 * const secret = await store.secrets.get(`webhook:${tenant}:${bot}`);
 */
export interface Secrets {
  put(name: string, plaintext: string): Promise<void>;
  /**
   * Stores `plaintext` unless the name holds a secret already, atomically, and returns the one kept:
   * replicas creating the same key at once all end up with the first one written.
   */
  putIfAbsent(name: string, plaintext: string): Promise<string>;
  get(name: string): Promise<string | undefined>;
  delete(name: string): Promise<boolean>;
  /** Names only, sorted. */
  names(): Promise<string[]>;
}

/** What a backend stores: sealed strings by name, plus the store's salt for passphrase keys. */
export interface SealedSecretStorage {
  read(name: string): Promise<string | undefined>;
  write(name: string, sealed: string): Promise<void>;
  /** Writes unless the name exists; returns the sealed value stored (either). One atomic step. */
  writeIfAbsent(name: string, sealed: string): Promise<string>;
  remove(name: string): Promise<boolean>;
  names(): Promise<string[]>;
  /** The store's salt, created once. */
  salt(): Promise<Buffer>;
}

/** The encryption layer shared by both stores. Without a key, every operation throws `SecretKeyMissingError`. */
export function createSecrets(storage: SealedSecretStorage, configuredKey: string | undefined): Secrets {
  let key: Promise<Buffer> | undefined;
  const getKey = (): Promise<Buffer> => {
    if (configuredKey === undefined || configuredKey.trim() === '') return Promise.reject(new SecretKeyMissingError());
    // a failed first read (the store briefly down) is not remembered: the next call tries again
    key ??= storage.salt().then(
      (salt) => deriveSecretKey(configuredKey, salt),
      (error: unknown) => {
        key = undefined;
        throw error;
      },
    );
    return key;
  };
  return {
    async put(name, plaintext) {
      parseOrThrow(SecretNameSchema, name, 'name');
      parseOrThrow(z.string(), plaintext, 'plaintext');
      await storage.write(name, sealSecret(await getKey(), name, plaintext));
    },
    async putIfAbsent(name, plaintext) {
      parseOrThrow(SecretNameSchema, name, 'name');
      parseOrThrow(z.string(), plaintext, 'plaintext');
      const sealKey = await getKey();
      return openSecret(sealKey, name, await storage.writeIfAbsent(name, sealSecret(sealKey, name, plaintext)));
    },
    async get(name) {
      parseOrThrow(SecretNameSchema, name, 'name');
      const sealed = await storage.read(name);
      return sealed === undefined ? undefined : openSecret(await getKey(), name, sealed);
    },
    delete: (name) => storage.remove(parseOrThrow(SecretNameSchema, name, 'name')),
    names: () => storage.names(),
  };
}
