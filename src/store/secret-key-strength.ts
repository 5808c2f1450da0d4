/**
 * Whether a configured `INTRABOT_SECRET_KEY` is fit to encrypt real tenants' secrets (issue #24). The
 * forms are secret-box.ts's: 64 hex characters or base64 of 32 bytes are the key itself; anything else is
 * a passphrase stretched with scrypt. scrypt slows a guesser down, it does not make `hunter2` unguessable,
 * so a passphrase must be long; and a key of a few repeated characters (`kkkk…`, `0000…`) is a
 * placeholder left in, not 32 random bytes, whatever its form.
 */

/** The shortest passphrase accepted. */
export const MIN_PASSPHRASE_LENGTH = 20;
/** Fewer distinct characters than this is a pattern, not randomness (random hex shows ~16, base64 ~30). */
export const MIN_DISTINCT_CHARACTERS = 10;

/** How to make a good key, for messages. */
export const SECRET_KEY_HOWTO =
  'generate one with `openssl rand -base64 32` (or `openssl rand -hex 32`) and keep it: secrets stored under it are unreadable without it';

/** The accepted forms, for messages. */
export const SECRET_KEY_FORMAT = `32 random bytes as base64 (44 characters) or hex (64 characters), or a passphrase of at least ${MIN_PASSPHRASE_LENGTH} characters`;

const PLACEHOLDER = /^(?:REPLACE_WITH|YOUR_)/i;

const RAW_KEY = /^(?:[0-9a-fA-F]{64}|[A-Za-z0-9+/_-]{43}=?)$/;

/**
 * Why the key is too weak, or undefined when it will do. Never quotes the key.
 *
 * @example secretKeyWeakness('hunter2') // 'is 7 characters long: …'
 */
export function secretKeyWeakness(configured: string): string | undefined {
  const value = configured.trim();
  const distinct = new Set(value).size;
  // an example's placeholder left in (deploy/kubernetes/secret.yaml writes REPLACE_WITH_...)
  if (PLACEHOLDER.test(value)) return 'is a placeholder from an example, not a key';
  if (RAW_KEY.test(value)) {
    return distinct < MIN_DISTINCT_CHARACTERS ? `repeats ${distinct} character(s): it is a placeholder, not random bytes` : undefined;
  }
  if (value.length < MIN_PASSPHRASE_LENGTH) return `is ${value.length} characters long: a passphrase needs at least ${MIN_PASSPHRASE_LENGTH}`;
  if (distinct < MIN_DISTINCT_CHARACTERS) return `uses only ${distinct} distinct character(s): a passphrase needs at least ${MIN_DISTINCT_CHARACTERS}`;
  return undefined;
}
