import { createHmac, timingSafeEqual } from 'node:crypto';

/** spec: Limits, "Signature replay window": 5 minutes. */
export const REPLAY_WINDOW_S = 300;

/**
 * The platform's delivery signature: hex HMAC-SHA256 over `<timestamp>.<raw body>`, keyed with the
 * endpoint's signing secret (spec: Events, Outgoing webhooks).
 *
 * @example sign('whsec', 1700000000, '{"id":"..."}') // => '5f0c...'
 */
export function sign(secret: string, timestamp: number, rawBody: string | Buffer): string {
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

export type VerifyResult =
  | { ok: true; timestamp: number }
  | { ok: false; reason: 'missing' | 'malformed' | 'stale' | 'future' | 'mismatch' };

const DIGITS = /^\d{1,12}$/;
const HEX = /^[0-9a-fA-F]+$/;

/**
 * Checks a delivery on its raw bytes: the `Timestamp` header must be within 5 minutes of `nowMs`
 * either way, and the signature must match in constant time.
 */
export function verify(input: VerifyInput, nowMs: number): VerifyResult {
  const { signature, timestamp } = input;
  if (!signature || !timestamp) return { ok: false, reason: 'missing' };
  if (!DIGITS.test(timestamp) || !HEX.test(signature)) return { ok: false, reason: 'malformed' };
  const ts = Number(timestamp);
  const age = nowMs / 1000 - ts;
  if (age > REPLAY_WINDOW_S) return { ok: false, reason: 'stale' };
  if (age < -REPLAY_WINDOW_S) return { ok: false, reason: 'future' };
  const expected = Buffer.from(sign(input.secret, ts, input.rawBody), 'hex');
  const given = Buffer.from(signature, 'hex');
  // unequal lengths would make timingSafeEqual throw; they are simply a mismatch
  const match = given.length === expected.length && timingSafeEqual(given, expected);
  return match ? { ok: true, timestamp: ts } : { ok: false, reason: 'mismatch' };
}
