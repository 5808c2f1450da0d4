import { createHash, timingSafeEqual } from 'node:crypto';
import type { z } from 'zod';
import type { AlertAuthSchema } from '../bots/manifest';

/** An alert input's credential, as the manifest states it: `{ bearer }`, `{ basic }` or `{ query_token }`. */
export type AlertInputAuth = z.output<typeof AlertAuthSchema>;

/** What a request offers: its `Authorization` header and its `?token=` query value. */
export interface OfferedCredentials {
  authorization: string | undefined;
  queryToken: string | undefined;
}

/**
 * Whether a request carries the input's credential. Every comparison takes the same time whatever
 * the offered value (both sides are hashed first, so lengths never leak either), and only the kind
 * the input is configured for counts: a bearer input ignores `?token=`.
 *
 * @example checkAlertAuth({ bearer: 's3cret' }, { authorization: 'Bearer s3cret', queryToken: undefined }) // => true
 */
export function checkAlertAuth(auth: AlertInputAuth, offered: OfferedCredentials): boolean {
  if ('bearer' in auth) return sameSecret(schemeValue(offered.authorization, 'bearer'), auth.bearer);
  if ('basic' in auth) return sameSecret(basicPair(offered.authorization), `${auth.basic.username}:${auth.basic.password}`);
  return sameSecret(offered.queryToken, auth.query_token);
}

/** The credential kind an input expects, for the `WWW-Authenticate` header of a 401. */
export function authChallenge(auth: AlertInputAuth): string | undefined {
  if ('bearer' in auth) return 'Bearer realm="intrabot alerts"';
  if ('basic' in auth) return 'Basic realm="intrabot alerts", charset="UTF-8"';
  return undefined;
}

/** A request URL with the value of `token=` replaced, for logs. */
export function redactQueryToken(url: string): string {
  return url.replace(/([?&]token=)[^&#]*/gi, '$1[redacted]');
}

function schemeValue(header: string | undefined, scheme: string): string | undefined {
  if (header === undefined) return undefined;
  const space = header.indexOf(' ');
  if (space < 0 || header.slice(0, space).toLowerCase() !== scheme) return undefined;
  return header.slice(space + 1).trim();
}

function basicPair(header: string | undefined): string | undefined {
  const encoded = schemeValue(header, 'basic');
  return encoded === undefined ? undefined : Buffer.from(encoded, 'base64').toString('utf8');
}

function sameSecret(offered: string | undefined, expected: string): boolean {
  // hash both so the comparison runs over equal lengths and takes the same time for any input
  const a = createHash('sha256')
    .update(offered ?? '')
    .digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b) && offered !== undefined;
}
