import { createHmac, timingSafeEqual } from 'node:crypto';

/** spec: Limits, "Signature replay window": 5 minutes. */
export const REPLAY_WINDOW_S = 300;

/** A SHA-256 digest is 32 bytes: exactly 64 hex characters. */
const SIGNATURE_HEX_LENGTH = 64;

/**
 * The platform's delivery signature: hex HMAC-SHA256 over `<timestamp>.<raw body>`, keyed with the
 * endpoint's signing secret (spec: Events, Outgoing webhooks). `timestamp` is signed exactly as it
 * is written in the `Timestamp` header, so a string is taken as is.
 *
 * @example sign('whsec', 1700000000, '{"id":"..."}') // => '5f0c...'
 */
export function sign(secret: string, timestamp: number | string, rawBody: string | Buffer): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex');
}

export interface VerifyInput {
  secret: string;
  /** The `Signature` header, as received. */
  signature: string | undefined;
  /** The `Timestamp` header, as received (a string of unix seconds). */
  timestamp: string | undefined;
  /** The body exactly as it came off the wire. */
  rawBody: string | Buffer;
}

export type VerifyResult = { ok: true; timestamp: number } | { ok: false; reason: 'missing' | 'malformed' | 'stale' | 'future' | 'mismatch' };

const DIGITS = /^\d{1,12}$/;
const HEX = /^[0-9a-fA-F]+$/;

/**
 * Checks a delivery on its raw bytes: the `Timestamp` header must be within 5 minutes of `nowMs`
 * either way (exactly 300 s is still accepted), and the signature must match in constant time.
 * Hex digits are compared as bytes, so an upper-case signature of the right bytes is accepted.
 */
export function verify(input: VerifyInput, nowMs: number): VerifyResult {
  const { signature, timestamp } = input;
  if (!signature || !timestamp) return { ok: false, reason: 'missing' };
  if (!DIGITS.test(timestamp) || !HEX.test(signature)) return { ok: false, reason: 'malformed' };
  // Buffer.from(hex) silently drops a trailing odd nibble: a 65-character string would decode to
  // the right 32 bytes, so the length is checked on the text itself
  if (signature.length !== SIGNATURE_HEX_LENGTH) return { ok: false, reason: 'malformed' };
  const ts = Number(timestamp);
  const age = nowMs / 1000 - ts;
  if (age > REPLAY_WINDOW_S) return { ok: false, reason: 'stale' };
  if (age < -REPLAY_WINDOW_S) return { ok: false, reason: 'future' };
  // signed over the header text as sent (spec: Events), not a re-formatted number
  const expected = Buffer.from(sign(input.secret, timestamp, input.rawBody), 'hex');
  const given = Buffer.from(signature, 'hex');
  const match = given.length === expected.length && timingSafeEqual(given, expected);
  return match ? { ok: true, timestamp: ts } : { ok: false, reason: 'mismatch' };
}
