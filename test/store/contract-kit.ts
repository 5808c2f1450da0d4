import type { AdjustableClock } from '../../src/clock';
import type { JsonValue, Store } from '../../src/store';

/** What each implementation's test file provides to the shared suite. */
export interface StoreHarness {
  clock: AdjustableClock;
  /** Opens a store over the same data (same file / same prefix), on a new connection. */
  open(options?: { secretKey?: string | undefined }): Promise<Store>;
  /** Everything the backend holds for secrets, raw, as one string. */
  rawSecrets(): Promise<string>;
  /** Marks the backing data as written by schema version `version`. */
  forceSchemaVersion(version: number): Promise<void>;
  /** Overwrites an entry's stored payload with `text` (a damaged row, or one another version wrote). */
  corruptPayload(queue: 'inbox' | 'outbox', id: string, text: string): Promise<void>;
  cleanup(): Promise<void>;
}

/** What each part of the suite works with; a fresh harness and store per test. */
export interface ContractContext {
  readonly harness: StoreHarness;
  readonly clock: AdjustableClock;
  /** The store opened for the test, with `CONTRACT_KEY`. */
  readonly store: Store;
  /** Another store over the same data (`null`: without a secret key); closed after the test. */
  open(secretKey?: string | null): Promise<Store>;
}

export const CONTRACT_KEY = 'c2VjcmV0LWtleS1mb3ItdGhlLXN0b3JlLWNvbnRyYWN0IQ=='; // base64 of 32 bytes
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;

export const envelope = (id: string, event = 'service.post.created', entity = 1): JsonValue => ({
  id,
  event,
  version: 'v1',
  timestamp: 1_700_000_000,
  customer: 'acme',
  payload: { id: entity },
});
