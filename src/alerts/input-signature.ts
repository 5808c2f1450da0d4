import { createHmac, timingSafeEqual } from 'node:crypto';
import type { z } from 'zod';
import type { AlertSigningSchema } from '../bots/manifest';

/** An alert input's `signing:` as the manifest states it: the shared secret, and Grafana's optional timestamp header. */
export type AlertSigning = z.output<typeof AlertSigningSchema>;

/** How long a signed timestamp stays acceptable either side of the runtime's clock (a replayed body is refused after it). */
export const SIGNATURE_TOLERANCE_MS = 5 * 60_000;

/** Why a signed request was refused; `ok` when it was not. */
export type SignatureVerdict = 'ok' | 'missing' | 'mismatch' | 'stale';

/**
 * How a source signs its webhooks: the header the signature comes in and what it signs. Each is an
 * HMAC-SHA256 in hex, keyed with the secret both sides share.
 */
interface SignatureScheme {
  header: string;
  /** What is signed: the raw body, or (Grafana with a timestamp header) `<timestamp>:<body>`. */
  message(body: Buffer, timestamp: string | undefined): Buffer;
}

const SCHEMES = {
  // Grafana's webhook contact point, HMAC signature settings (Grafana 12): X-Grafana-Alerting-Signature,
  // and with a timestamp header configured the signed text is "<timestamp>:<body>"
  grafana: {
    header: 'x-grafana-alerting-signature',
    message: (body, timestamp) => (timestamp === undefined ? body : Buffer.concat([Buffer.from(`${timestamp}:`), body])),
  },
  // Sentry's integration webhooks: Sentry-Hook-Signature, the HMAC of the body with the client secret
  sentry: { header: 'sentry-hook-signature', message: (body) => body },
} as const satisfies Record<string, SignatureScheme>;

export type SignatureSchemeName = keyof typeof SCHEMES;

/** The scheme an input's senders sign with, from its format and mapping; undefined when the source signs nothing we know. */
export function signatureSchemeOf(format: string, mapping: unknown): SignatureSchemeName | undefined {
  if (format === 'grafana') return 'grafana';
  if (format === 'generic' && mapping === 'sentry') return 'sentry';
  return undefined;
}

/**
 * Checks a signed request over the raw body, before it is parsed: the signature header must hold the
 * HMAC the secret gives (compared in constant time), and a timestamp header, when the input names one,
 * must be within `SIGNATURE_TOLERANCE_MS` of `nowMs` and is part of what is signed.
 *
 * @example verifySignature('grafana', { secret: 's' }, body, { 'x-grafana-alerting-signature': hex }, clock.now()) // 'ok'
 */
export function verifySignature(
  scheme: SignatureSchemeName,
  signing: AlertSigning,
  body: Buffer,
  headers: Readonly<Record<string, string | string[] | undefined>>,
  nowMs: number,
): SignatureVerdict {
  const { header, message } = SCHEMES[scheme];
  const offered = single(headers[header]);
  if (offered === undefined) return 'missing';
  let timestamp: string | undefined;
  if (signing.timestamp_header !== undefined) {
    timestamp = single(headers[signing.timestamp_header.toLowerCase()]);
    if (timestamp === undefined) return 'missing';
    const seconds = Number(timestamp);
    if (!Number.isFinite(seconds) || Math.abs(nowMs - seconds * 1000) > SIGNATURE_TOLERANCE_MS) return 'stale';
  }
  const expected = createHmac('sha256', signing.secret).update(message(body, timestamp)).digest();
  const given = Buffer.from(offered.trim(), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected) ? 'ok' : 'mismatch';
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
