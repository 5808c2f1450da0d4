import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from 'node:crypto';
import { SecretUndecryptableError } from './store-errors';

const KEY_BYTES = 32;
const IV_BYTES = 12;
const FORMAT = 'v1';

/**
 * Turns `INTRABOT_SECRET_KEY` into the 32-byte AES key. Accepted forms:
 * - 64 hex characters: the key itself;
 * - base64 (or base64url) of exactly 32 bytes: the key itself (`openssl rand -base64 32`);
 * - anything else is a passphrase: scrypt(passphrase, salt) with the store's own random salt, so the same
 *   passphrase gives different keys in different stores.
 */
export function deriveSecretKey(configured: string, salt: Buffer): Buffer {
  const value = configured.trim();
  if (/^[0-9a-fA-F]{64}$/.test(value)) return Buffer.from(value, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(value)) {
    const bytes = Buffer.from(value, value.includes('-') || value.includes('_') ? 'base64url' : 'base64');
    if (bytes.length === KEY_BYTES) return bytes;
  }
  return scryptSync(value, salt, KEY_BYTES);
}

/** A fresh per-store salt for passphrase keys. */
export function newSalt(): Buffer {
  return randomBytes(16);
}

/**
 * AES-256-GCM with a random 96-bit IV per value. The secret's name is the associated data, so a
 * ciphertext copied under another name does not decrypt. Stored as `v1.<iv>.<tag>.<ciphertext>` (base64).
 */
export function sealSecret(key: Buffer, name: string, plaintext: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(name, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [FORMAT, iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join('.');
}

/** Decrypts what `sealSecret` wrote; any failure (wrong key, tampering, unknown format) is `secret_undecryptable`. */
export function openSecret(key: Buffer, name: string, sealed: string): string {
  const [format, iv, tag, body] = sealed.split('.');
  if (format !== FORMAT || iv === undefined || tag === undefined || body === undefined) {
    throw new SecretUndecryptableError(name);
  }
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
    decipher.setAAD(Buffer.from(name, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
  } catch (cause) {
    // the cause is crypto's own message ("unable to authenticate data"): no key material in it
    throw new SecretUndecryptableError(name, { cause });
  }
}
