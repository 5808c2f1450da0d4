import { ConfigError, IntrabotError, type IntrabotErrorOptions } from '../errors';

/** The key env var, named in every error about it. */
export const SECRET_KEY_ENV = 'INTRABOT_SECRET_KEY';

/** A stored secret did not decrypt: the configured key is not the one it was written with, or the row was tampered with. */
export class SecretUndecryptableError extends IntrabotError {
  constructor(name: string, options: IntrabotErrorOptions = {}) {
    // the secret's name is safe to show; its value never is
    super('secret_undecryptable', `secret "${name}" cannot be decrypted with the configured ${SECRET_KEY_ENV}`, {
      ...options,
      details: { name },
    });
  }
}

/**
 * No key to encrypt secrets with. A `ConfigError` naming `INTRABOT_SECRET_KEY` (so config checks treat it
 * like any other missing setting) that carries the registered `secret_key_missing` code.
 */
export class SecretKeyMissingError extends ConfigError {
  override readonly code = 'secret_key_missing' as const;
  constructor(message = `${SECRET_KEY_ENV} is required in connected mode to encrypt secrets at rest`) {
    super(SECRET_KEY_ENV, message);
  }
}

/** The backing store cannot be reached, or is in a state this version cannot use. */
export class StoreUnavailableError extends IntrabotError {
  constructor(message: string, options: IntrabotErrorOptions = {}) {
    super('store_unavailable', message, options);
  }
}

/**
 * What a failure of the store's backend (a Redis that does not answer, a SQLite file that cannot be read
 * or written) becomes: `store_unavailable`, which routes answer with 503 and Retry-After. The driver's
 * error stays the cause, for the log; its text, which may name hosts or paths, is not the message.
 * Errors intrabot raised on purpose (bad input, a conflict, a secret that does not decrypt) keep theirs.
 */
export function asStoreError(error: unknown): unknown {
  if (error instanceof IntrabotError) return error;
  return new StoreUnavailableError('the store is unavailable; try again shortly', { cause: error });
}
