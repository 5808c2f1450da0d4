import type { FastifyRequest } from 'fastify';
import type { SandboxContext } from '../context';
import { KIND, type TokenRecord, type UserRecord } from '../state/records';
import { forbidden, unauthorized } from './sandbox-error';

export interface AuthInfo {
  token: TokenRecord;
  /** Who content created with this token is attributed to (spec: Authentication 4). */
  actor: UserRecord;
}

/** Finds the token of a request, or answers 401 (spec: Authentication 5; Errors: 401 `unauthorized`). */
export function authenticate(ctx: SandboxContext, request: FastifyRequest): AuthInfo {
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  if (!match) throw unauthorized('Unauthenticated.');
  const value = match[1];
  const token = ctx.db.find<TokenRecord>(KIND.tokens, (t) => t.token === value);
  if (!token || !token.active) throw unauthorized('Unauthenticated.');
  // spec: Authentication 3 — a token may have an expiry date and be restricted to one IP
  if (token.expires_at !== null && token.expires_at <= ctx.now()) throw unauthorized('The token has expired.');
  if (token.ip !== null && token.ip !== request.ip) throw unauthorized('The token is not valid from this address.');
  const actor = attributedUser(ctx, token);
  return { token, actor };
}

/** spec: Endpoints — "A token lacking the scope gets 403"; Errors: the message names the scope. */
export function requireScope(auth: AuthInfo, scope: string | null): void {
  if (scope === null) return;
  if (!auth.token.scopes.includes(scope)) throw forbidden(`This action requires the ${scope} scope.`);
}

function attributedUser(ctx: SandboxContext, token: TokenRecord): UserRecord {
  if (token.attribution === 'system') {
    const system = ctx.db.find<UserRecord & { id: number }>(KIND.users, (u) => u.kind === 'system');
    if (system) return system;
  }
  const creator = ctx.db.get<UserRecord & { id: number }>(KIND.users, token.user_id);
  if (!creator) throw unauthorized('The token has no owner.');
  return creator;
}
