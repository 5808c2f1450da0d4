import { createHash, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { ConfigError } from '../errors';
import { describeIssues } from '../validation';
import { PLATFORM_SCOPES } from './platform-scopes';

/** The key that exists in sandbox mode only, so the README's curl examples work at once. */
export const SANDBOX_PROXY_KEY = 'sandbox-proxy-key';

const ScopeSchema = z.enum(PLATFORM_SCOPES, { error: (issue) => `unknown scope ${JSON.stringify(issue.input)}` });

/**
 * One proxy key as configured. `scopes: ['*']` holds every scope; otherwise a list of platform
 * scopes, which should be a subset of the token's (the platform refuses the rest anyway).
 * `tenants` limits the key to those tenant ids; omitted, every tenant.
 */
export const ProxyKeyConfigSchema = z.object({
  name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'must be a plain name (letters, digits, _ . -): it appears in the audit log'),
  key: z.string().min(16, 'must be at least 16 characters'),
  scopes: z
    .array(z.union([z.literal('*'), ScopeSchema], { error: (issue) => `unknown scope ${JSON.stringify(issue.input)}` }))
    .min(1, 'needs at least one scope, or ["*"]')
    .refine((scopes) => !scopes.includes('*') || scopes.length === 1, '"*" stands alone: it already means every scope'),
  tenants: z.array(z.string().min(1)).min(1).optional(),
});
export type ProxyKeyConfig = z.infer<typeof ProxyKeyConfigSchema>;

/**
 * The proxy's configuration, to sit under `proxy:` in `intrabot.yaml`.
 *
 * @example
 * proxy:
 *   bot_share: 0.5
 *   keys:
 *     - { name: dashboards, key: ${env:DASHBOARD_PROXY_KEY}, scopes: [read:posts, read:walls] }
 */
export const ProxyConfigSchema = z.object({
  keys: z
    .array(ProxyKeyConfigSchema)
    .default([])
    .superRefine((keys, ctx) => {
      // the audit log names callers by key name, and one key must mean one caller
      const names = new Set<string>();
      const secrets = new Set<string>();
      for (const [index, key] of keys.entries()) {
        if (names.has(key.name)) ctx.addIssue({ code: 'custom', path: [index, 'name'], message: `duplicate key name ${key.name}` });
        if (secrets.has(key.key)) ctx.addIssue({ code: 'custom', path: [index, 'key'], message: 'the same key is configured twice' });
        names.add(key.name);
        secrets.add(key.key);
      }
    }),
  /** While the outbox has work queued, proxy callers get at most this share of the token's budget. */
  bot_share: z.number().gt(0).max(1).default(0.5),
  /** Largest buffered (non-multipart) request body, in bytes. Multipart uploads are streamed. */
  body_limit: z.number().int().positive().default(1_048_576),
});
export type ProxyConfig = z.infer<typeof ProxyConfigSchema>;
export type ProxyConfigInput = z.input<typeof ProxyConfigSchema>;

/** Validates the `proxy:` configuration; an error names the key (`proxy.keys.0.scopes.1`), never a key's value. */
export function parseProxyConfig(input: unknown): ProxyConfig {
  const result = ProxyConfigSchema.safeParse(input ?? {});
  if (result.success) return result.data;
  const { field, message } = describeIssues(result.error, 'proxy');
  throw new ConfigError(field, message);
}

/** An authenticated caller: everything about a key except the key. */
export interface ProxyCaller {
  name: string;
  /** `all` for `['*']`. */
  scopes: ReadonlySet<string> | 'all';
  tenants: ReadonlySet<string> | 'all';
}

interface StoredKey {
  caller: ProxyCaller;
  digest: Buffer;
}

/** Looks up the caller of a presented key; only digests of the keys are held. */
export interface KeyRing {
  readonly size: number;
  authenticate(presented: string | undefined): ProxyCaller | undefined;
}

function digest(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

/**
 * The key ring of the configured keys, plus `sandbox-proxy-key` (every scope) in sandbox mode.
 * Each presented key is compared with every stored digest in constant time, so neither the match
 * nor its position leaks through timing.
 *
 * @example
 * const ring = createKeyRing(config.keys, { mode: 'sandbox' });
 * ring.authenticate('sandbox-proxy-key')?.name // 'sandbox'
 */
export function createKeyRing(keys: readonly ProxyKeyConfig[], options: { mode: 'sandbox' | 'connected' }): KeyRing {
  const stored: StoredKey[] = keys.map((k) => ({
    caller: {
      name: k.name,
      scopes: k.scopes.includes('*') ? 'all' : new Set<string>(k.scopes),
      tenants: k.tenants ? new Set(k.tenants) : 'all',
    },
    digest: digest(k.key),
  }));
  if (options.mode === 'sandbox') stored.push({ caller: { name: 'sandbox', scopes: 'all', tenants: 'all' }, digest: digest(SANDBOX_PROXY_KEY) });
  return {
    size: stored.length,
    authenticate(presented) {
      if (presented === undefined || presented === '') return undefined;
      const given = digest(presented);
      let found: ProxyCaller | undefined;
      for (const entry of stored) {
        if (timingSafeEqual(entry.digest, given) && !found) found = entry.caller;
      }
      return found;
    },
  };
}

/**
 * The scopes a key is configured with that the platform token does not hold (from `GET /token`):
 * the platform would refuse those calls anyway, so `intrabot doctor` reports them. `['*']` is
 * measured against every platform scope.
 *
 * @example scopesBeyondToken({ name: 'ci', key, scopes: ['read:walls', 'write:posts'] }, ['read:walls']) // ['write:posts']
 */
export function scopesBeyondToken(key: ProxyKeyConfig, tokenScopes: readonly string[]): string[] {
  const held = new Set(tokenScopes);
  const wanted: readonly string[] = key.scopes.includes('*') ? PLATFORM_SCOPES : key.scopes;
  return wanted.filter((scope) => !held.has(scope));
}

/** The key a request presents: `Authorization: Bearer <key>` or `X-Proxy-Key: <key>`. */
export function presentedKey(headers: Record<string, string | string[] | undefined>): string | undefined {
  const explicit = headers['x-proxy-key'];
  if (typeof explicit === 'string' && explicit !== '') return explicit.trim();
  const auth = headers.authorization;
  if (typeof auth !== 'string') return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(auth);
  return match?.[1];
}
