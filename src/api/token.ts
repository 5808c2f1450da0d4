import { InvalidTokenError } from './errors';

/**
 * Checks a bearer token's form before anything is sent (spec: Authentication 1: tokens begin with
 * the fixed prefix `svc_`). The error never repeats the token.
 */
export function checkToken(token: unknown): string {
  if (typeof token !== 'string' || token.trim() === '') throw new InvalidTokenError('no token was given');
  if (!token.startsWith('svc_')) throw new InvalidTokenError('the token does not start with svc_');
  if (/\s/.test(token)) throw new InvalidTokenError('the token contains whitespace');
  return token;
}
