import { sign } from '../../webhooks/signature';
import type { DeliveryTargetFields } from './records';

const MASK = '***';

/**
 * spec: Outgoing webhook management, "Delivery auth headers" — the header an auth type sends, or
 * undefined without auth.
 */
export function authHeader(target: Pick<DeliveryTargetFields, 'auth_type' | 'auth_value' | 'auth_header'>): [string, string] | undefined {
  const value = target.auth_value ?? '';
  switch (target.auth_type) {
    case 'bearer_token':
      return ['Authorization', `Bearer ${value}`];
    case 'basic_auth':
      return ['Authorization', `Basic ${Buffer.from(value, 'utf8').toString('base64')}`];
    case 'api_key':
      return target.auth_header ? [target.auth_header, value] : undefined;
    default:
      return undefined;
  }
}

/**
 * The headers of one attempt (spec: Events, Outgoing webhooks): custom headers, the auth header,
 * then `Content-Type`, `Signature` (hex HMAC-SHA256 of `<Timestamp>.<body>`) and `Timestamp`, which
 * nothing configured can override.
 */
export function deliveryHeaders(target: DeliveryTargetFields, timestamp: number, body: string): Record<string, string> {
  const headers: Record<string, string> = { ...(target.custom_headers ?? {}) };
  const auth = authHeader(target);
  if (auth) headers[auth[0]] = auth[1];
  headers['Content-Type'] = 'application/json';
  headers.Signature = sign(target.secret, timestamp, body);
  headers.Timestamp = String(timestamp);
  return headers;
}

/** The headers as the delivery log shows them: credential and custom header values masked. */
export function maskedHeaders(target: DeliveryTargetFields, headers: Record<string, string>): Record<string, string> {
  const secretNames = new Set(Object.keys(target.custom_headers ?? {}).map((n) => n.toLowerCase()));
  const auth = authHeader(target);
  if (auth) secretNames.add(auth[0].toLowerCase());
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!secretNames.has(name.toLowerCase())) out[name] = value;
    else if (name.toLowerCase() === 'authorization') out[name] = `${value.split(' ')[0] ?? ''} ${MASK}`;
    else out[name] = MASK;
  }
  return out;
}

/** Header names with their values masked, as the management responses show custom headers. */
export function maskHeaderValues(headers: Record<string, string> | null): Record<string, string> | null {
  if (!headers) return null;
  return Object.fromEntries(Object.keys(headers).map((name) => [name, MASK]));
}
