import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { z } from 'zod';
import type { AlertSigningSchema } from '../bots/manifest';

/** An alert input's `signing:` as the manifest states it: the shared secret, and Grafana's optional timestamp header. */
export type AlertSigning = z.output<typeof AlertSigningSchema>;

/** How long a signed timestamp stays acceptable either side of the runtime's clock (a replayed body is refused after it). */
export const SIGNATURE_TOLERANCE_MS = 5 * 60_000;

/** Why a signed request was refused; `ok` when it was not. */
export type SignatureVerdict = 'ok' | 'missing' | 'mismatch' | 'stale';

type Headers = Readonly<Record<string, string | string[] | undefined>>;

/** How a source signs its webhooks, and the check of one request over its raw body. */
type SignatureScheme = (signing: AlertSigning, body: Buffer, headers: Headers, nowMs: number) => SignatureVerdict;

const SCHEMES = {
  // Grafana's webhook contact point, HMAC signature settings: X-Grafana-Alerting-Signature, the hex
  // HMAC-SHA256 of the body, or of "<timestamp>:<body>" when a timestamp header is configured
  grafana: (signing, body, headers, nowMs) => {
    const offered = single(headers['x-grafana-alerting-signature']);
    if (offered === undefined) return 'missing';
    if (signing.timestamp_header === undefined) return sameHex(offered, hmac(signing.secret, body));
    const timestamp = single(headers[signing.timestamp_header.toLowerCase()]);
    if (timestamp === undefined) return 'missing';
    if (!recent(Number(timestamp), nowMs)) return 'stale';
    return sameHex(offered, hmac(signing.secret, Buffer.concat([Buffer.from(`${timestamp}:`), body])));
  },
  // Sentry's integration webhooks: Sentry-Hook-Signature, the hex HMAC-SHA256 of the body with the client secret
  sentry: (signing, body, headers) => {
    const offered = single(headers['sentry-hook-signature']);
    return offered === undefined ? 'missing' : sameHex(offered, hmac(signing.secret, body));
  },
  // GitHub's webhooks: X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the body>
  github: (signing, body, headers) => {
    const offered = single(headers['x-hub-signature-256']);
    if (offered === undefined || !offered.startsWith('sha256=')) return 'missing';
    return sameHex(offered.slice('sha256='.length), hmac(signing.secret, body));
  },
  // GitLab: the signed webhooks of the Standard Webhooks spec when it sends them (webhook-id,
  // webhook-timestamp, webhook-signature: "v1,<base64>" ...), else the secret token as X-Gitlab-Token
  gitlab: (signing, body, headers, nowMs) => {
    if (single(headers['webhook-signature']) !== undefined) return standardWebhook(signing, body, headers, nowMs);
    const token = single(headers['x-gitlab-token']);
    if (token === undefined) return 'missing';
    return sameBytes(createHash('sha256').update(token).digest(), createHash('sha256').update(signing.secret).digest()) ? 'ok' : 'mismatch';
  },
} as const satisfies Record<string, SignatureScheme>;

export type SignatureSchemeName = keyof typeof SCHEMES;

/**
 * The headers a sender of `scheme` signs a fixed body with, for the schemes whose signature depends on
 * the body alone (GitHub's and Sentry's HMAC, GitLab's token); undefined for those that sign a time too
 * (Grafana's with a timestamp, Standard Webhooks), whose signature would go stale.
 *
 * @example signedHeaders('github', { secret: 's' }, body) // { 'x-hub-signature-256': 'sha256=<hex>' }
 */
export function signedHeaders(scheme: SignatureSchemeName, signing: AlertSigning, body: Buffer): Record<string, string> | undefined {
  const hex = (): string => hmac(signing.secret, body).toString('hex');
  if (scheme === 'github') return { 'x-hub-signature-256': `sha256=${hex()}` };
  if (scheme === 'sentry') return { 'sentry-hook-signature': hex() };
  if (scheme === 'gitlab') return { 'x-gitlab-token': signing.secret };
  if (scheme === 'grafana' && signing.timestamp_header === undefined) return { 'x-grafana-alerting-signature': hex() };
  return undefined;
}

/** The scheme an input's senders sign with, from its format and mapping (or, for `generic`, its `signing.scheme`); undefined when the source signs nothing we know. */
export function signatureSchemeOf(format: string, mapping: unknown, scheme?: SignatureSchemeName): SignatureSchemeName | undefined {
  if (format === 'grafana' || format === 'github' || format === 'gitlab') return format;
  // a generic input says whose signature it checks: `signing: { secret, scheme: github }`
  if (format === 'generic' && scheme !== undefined) return scheme;
  if (format === 'generic' && mapping === 'sentry') return 'sentry';
  return undefined;
}

/**
 * Checks a signed request over the raw body, before it is parsed: the signature must be the HMAC the
 * secret gives (compared in constant time), and a signed timestamp, where the scheme has one, within
 * `SIGNATURE_TOLERANCE_MS` of `nowMs`.
 *
 * @example verifySignature('github', { secret: 's' }, body, { 'x-hub-signature-256': `sha256=${hex}` }, clock.now()) // 'ok'
 */
export function verifySignature(scheme: SignatureSchemeName, signing: AlertSigning, body: Buffer, headers: Headers, nowMs: number): SignatureVerdict {
  return SCHEMES[scheme](signing, body, headers, nowMs);
}

/**
 * A Standard Webhooks signature: `webhook-signature` lists `v1,<base64>` entries (space-separated, one
 * per secret the sender holds), each the HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>`, keyed
 * with the secret's bytes (`whsec_<base64>`; a secret without the prefix is used as text).
 */
function standardWebhook(signing: AlertSigning, body: Buffer, headers: Headers, nowMs: number): SignatureVerdict {
  const id = single(headers['webhook-id']);
  const timestamp = single(headers['webhook-timestamp']);
  const offered = single(headers['webhook-signature']);
  if (id === undefined || timestamp === undefined || offered === undefined) return 'missing';
  if (!recent(Number(timestamp), nowMs)) return 'stale';
  const key = signing.secret.startsWith('whsec_') ? Buffer.from(signing.secret.slice('whsec_'.length), 'base64') : Buffer.from(signing.secret);
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest();
  const signatures = offered.split(' ').filter((entry) => entry.startsWith('v1,'));
  return signatures.some((entry) => sameBytes(Buffer.from(entry.slice(3), 'base64'), expected)) ? 'ok' : 'mismatch';
}

function hmac(secret: string, message: Buffer): Buffer {
  return createHmac('sha256', secret).update(message).digest();
}

function recent(seconds: number, nowMs: number): boolean {
  return Number.isFinite(seconds) && Math.abs(nowMs - seconds * 1000) <= SIGNATURE_TOLERANCE_MS;
}

function sameHex(offered: string, expected: Buffer): SignatureVerdict {
  return sameBytes(Buffer.from(offered.trim(), 'hex'), expected) ? 'ok' : 'mismatch';
}

function sameBytes(given: Buffer, expected: Buffer): boolean {
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
