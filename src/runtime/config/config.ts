import { existsSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { ConfigError } from '../../errors';
import { ProxyConfigSchema } from '../../proxy/proxy-keys';
import { MissingEnvRefError, maskEnvRefs, unmaskEnvRefs, type EnvRef } from '../../bots/env-refs';
import { WEBHOOK_SECRETS_ENV, WebhookSecretsSchema, applyEnvWebhookSecrets } from './configured-secrets';
import { settingName, shownValue, type SettingSources } from './setting-names';
import { ConfigProblems } from './config-problems';
import { readSettingFiles } from './setting-files';
import { publicUrlMissingMessage } from './public-url-message';
import { SECRET_KEY_FORMAT, SECRET_KEY_HOWTO, secretKeyWeakness } from '../../store/secret-key-strength';
import { MinReplicasSchema, RedisServersSchema, RedisUrlSchema, WaitTimeoutMsSchema } from '../../store/redis/redis-config';

/**
 * Configuration in one validated place (DESIGN.md: Modes, Environment): the environment and an
 * optional `intrabot.yaml`. Every error names the key (the env var or the yaml path) and nothing
 * starts with a configuration that cannot work.
 */

export const SANDBOX_TOKEN = 'svc_sandbox_token';
export const SANDBOX_TENANT_ID = 'sandbox';

const slug = z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'must be a slug: lowercase letters, digits and dashes');

export const TenantConfigSchema = z.object({
  id: slug,
  /** The customer host, `{base_url}` in the spec; the client adds `/api/open/v1`. */
  base_url: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }),
  token: z.string().startsWith('svc_', 'must be a platform token (it starts with svc_)'),
  /** The brand part of event names (`service.post.created`). */
  event_prefix: z.string().min(1).default('service'),
  /** When set, deliveries whose envelope names another customer are refused. */
  customer: z.string().min(1).optional(),
  /** For "today", cron defaults and award days; the spec's reports run on CET. */
  timezone: z.string().default('Europe/Berlin'),
  /** Per bot, signing secrets of endpoints managed outside intrabot, accepted beside the provisioned one. */
  webhook_secrets: WebhookSecretsSchema.optional(),
});
export type TenantConfig = z.infer<typeof TenantConfigSchema>;

export const RuntimeConfigSchema = z.object({
  mode: z.enum(['sandbox', 'connected']),
  host: z.string().default('127.0.0.1'),
  port: z.number().int().min(0).max(65_535).default(3000),
  sandbox_port: z.number().int().min(0).max(65_535).default(4010),
  /** Where the platform reaches `/hooks`; in sandbox mode the runtime's own loopback address. */
  public_url: z.url().optional(),
  data_dir: z.string().default('.intrabot'),
  bots_dir: z.string().default('bots'),
  /** The Redis store: `redis://` (one server), `redis+sentinel://` or `redis+cluster://` (see redis-config.ts). */
  redis_url: RedisUrlSchema.optional(),
  /** The Redis store's servers as a mapping (`sentinels` + `name`, or `cluster`), instead of `redis_url`. */
  redis: RedisServersSchema.optional(),
  /** Replicas that must confirm each accept before it is acknowledged (Redis `WAIT`); 0 or unset: none. */
  redis_min_replicas: MinReplicasSchema.optional(),
  /** How long those replicas are waited for, in milliseconds (default 1000); fewer in time answers 503. */
  redis_wait_timeout_ms: WaitTimeoutMsSchema.optional(),
  /** The PostgreSQL store (`postgres://user@host:5432/db`), for several replicas on a database teams already run. */
  database_url: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'expected a postgres:// or postgresql:// URL')
    .optional(),
  /** The PostgreSQL schema intrabot's tables live in, so the store can share a database. */
  database_schema: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'expected a lower-case SQL identifier (letters, digits, _)')
    .default('intrabot'),
  /** Keys in Redis start with this (several deployments may share one Redis). */
  redis_prefix: z
    .string()
    .regex(/^[A-Za-z0-9:_-]+$/, 'letters, digits, ":", "_" and "-" only')
    .default('intrabot'),
  /**
   * Whether the runtime brings the PostgreSQL schema up to date when it opens the store (default); false
   * (`intrabot start --no-migrate`) leaves that to `intrabot migrate`, run once per release.
   */
  database_migrate: z.boolean().default(true),
  secret_key: z.string().optional(),
  admin_token: z.string().optional(),
  /**
   * How long `start` keeps retrying a platform that fails transiently (5xx, network, timeouts) before it
   * gives up and exits, in seconds (default 60); 0 gives up at the first failure.
   */
  start_wait: z.number().int().min(0).max(3_600).optional(),
  log_level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  tenants: z.array(TenantConfigSchema).min(1, 'at least one tenant is needed'),
  /** The API proxy's keys and the share of the budget proxy callers get while bots have work queued. */
  proxy: ProxyConfigSchema.optional(),
  /**
   * The bots to deploy, by name (`INTRABOT_BOTS=birthday,alerts`), in either mode; when absent, every
   * bot in sandbox mode and every bot but the examples (`example: true`) in connected mode.
   */
  bots: z.array(z.string().min(1, 'a bot name cannot be empty')).min(1, 'name at least one bot, or leave the setting out').optional(),
  /**
   * Modules of runtime-wide middleware (`INTRABOT_MIDDLEWARE=./middleware/timing.ts`), relative to the
   * working directory: each default-exports a middleware or a list of them (docs/middleware.md).
   */
  middleware: z.array(z.string().min(1, 'a module path cannot be empty')).optional(),
});
export type RuntimeConfig = z.infer<typeof RuntimeConfigSchema>;

type Env = Readonly<Record<string, string | undefined>>;

export interface LoadConfigOptions {
  env?: Env;
  cwd?: string;
  /** Path of the yaml file; default `intrabot.yaml` in `cwd` when it exists. */
  file?: string;
  /** Also check what `start` needs (the public URL in connected mode), so one run reports all of it. */
  forStart?: boolean;
}

export const ENV_KEYS = {
  INTRABOT_PORT: 'port',
  INTRABOT_SANDBOX_PORT: 'sandbox_port',
  INTRABOT_PUBLIC_URL: 'public_url',
  INTRABOT_DATA_DIR: 'data_dir',
  INTRABOT_BOTS_DIR: 'bots_dir',
  INTRABOT_REDIS_URL: 'redis_url',
  INTRABOT_REDIS_PREFIX: 'redis_prefix',
  INTRABOT_REDIS_MIN_REPLICAS: 'redis_min_replicas',
  INTRABOT_REDIS_WAIT_TIMEOUT_MS: 'redis_wait_timeout_ms',
  INTRABOT_DATABASE_URL: 'database_url',
  INTRABOT_DATABASE_SCHEMA: 'database_schema',
  INTRABOT_SECRET_KEY: 'secret_key',
  INTRABOT_ADMIN_TOKEN: 'admin_token',
  INTRABOT_LOG_LEVEL: 'log_level',
  INTRABOT_HOST: 'host',
  INTRABOT_START_WAIT: 'start_wait',
} as const;

const NUMERIC = new Set(['port', 'sandbox_port', 'start_wait']);
/** Whole numbers whose range the schema checks (and names). */
const INTEGERS = new Set(['redis_min_replicas', 'redis_wait_timeout_ms']);

/**
 * Reads the configuration. With neither tenants in `intrabot.yaml` nor `INTRABOT_BASE_URL` +
 * `INTRABOT_TOKEN`, the runtime is in sandbox mode against the embedded emulator. Every missing or
 * invalid setting is reported at once, in one `SettingsError` listing each (issue #24).
 *
 * @example
 * const config = loadConfig({ env: process.env });
 * config.mode // 'sandbox'
 */
export function loadConfig(options: LoadConfigOptions = {}): RuntimeConfig {
  const problems = new ConfigProblems();
  const files = readSettingFiles(options.env ?? process.env);
  for (const p of files.problems) problems.add(p.setting, p.message);
  const env = files.env;
  const cwd = options.cwd ?? process.cwd();
  const file = options.file ?? join(cwd, 'intrabot.yaml');
  const sources: SettingSources = { env, envKeys: ENV_KEYS, file: basename(file) };
  const fromFile = readYaml(file, options.file !== undefined, sources, problems);
  const merged = mergeEnv(fromFile, env, problems);
  merged.tenants = problems.collect(() => tenantsFrom(env, fromFile.tenants), undefined);
  merged.mode = merged.tenants === undefined && !tenantConfigured(env) ? 'sandbox' : 'connected';
  if (merged.mode === 'sandbox') merged.tenants = [sandboxTenant(merged.sandbox_port)];
  if (merged.tenants !== undefined) problems.collect(() => applyEnvWebhookSecrets(merged.tenants as unknown[], env[WEBHOOK_SECRETS_ENV]), undefined);

  const result = RuntimeConfigSchema.safeParse(merged);
  if (!result.success) for (const issue of result.error.issues) addIssue(problems, issue, merged, sources, env);
  if (merged.mode === 'connected') connectedProblems(merged, { env, fromFile, sources }, problems, options.forStart ?? false);
  storeProblems(merged, sources, problems);
  problems.throwIfAny();
  if (!result.success) throw new ConfigError('(config)', 'the configuration is invalid');
  const config = result.data;
  config.data_dir = resolve(cwd, config.data_dir);
  config.bots_dir = resolve(cwd, config.bots_dir);
  if (config.middleware) config.middleware = config.middleware.map((path) => resolve(cwd, path));
  return config;
}

/** Settings that name two stores, or two ways to one Redis, or Redis settings without Redis. */
function storeProblems(merged: Record<string, unknown>, sources: SettingSources, problems: ConfigProblems): void {
  const name = (key: string): string => settingName([key], sources);
  const redis = merged.redis_url !== undefined ? 'redis_url' : merged.redis !== undefined ? 'redis' : undefined;
  if (redis !== undefined && merged.database_url !== undefined) {
    const [r, database] = [name(redis), name('database_url')];
    problems.add(database, `${r} and ${database} are both set: the store is one of them (Redis or PostgreSQL); unset the other`);
  }
  if (merged.redis_url !== undefined && merged.redis !== undefined) {
    problems.add(
      name('redis'),
      `${name('redis_url')} and ${name('redis')} are both set: give the Redis servers one way (a URL, or the mapping); unset the other`,
    );
  }
  for (const key of ['redis_min_replicas', 'redis_wait_timeout_ms']) {
    if (merged[key] !== undefined && redis === undefined) problems.add(name(key), `${name(key)} is set, but the store is not Redis (set INTRABOT_REDIS_URL)`);
  }
}

const tenantConfigured = (env: Env): boolean => Boolean(env.INTRABOT_BASE_URL || env.INTRABOT_TOKEN);

/** The file's settings with the environment's over them; a variable that is not a number where one is needed is a problem. */
function mergeEnv(fromFile: Record<string, unknown>, env: Env, problems: ConfigProblems): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...fromFile };
  for (const [envName, key] of Object.entries(ENV_KEYS)) {
    const value = env[envName];
    if (value === undefined || value === '') continue;
    const parse = key === 'start_wait' ? toSeconds : NUMERIC.has(key) ? toPort : INTEGERS.has(key) ? toInteger : undefined;
    merged[key] = parse ? problems.collect(() => parse(envName, value), undefined) : value;
  }
  const bots = env.INTRABOT_BOTS;
  if (bots !== undefined && bots.trim() !== '') merged.bots = bots.split(',').map((name) => name.trim());
  const middleware = env.INTRABOT_MIDDLEWARE;
  if (middleware !== undefined && middleware.trim() !== '') merged.middleware = middleware.split(',').map((path) => path.trim());
  return merged;
}

function addIssue(problems: ConfigProblems, issue: z.core.$ZodIssue, merged: Record<string, unknown>, sources: SettingSources, env: Env): void {
  // no tenants because the environment's were incomplete: that problem is listed already
  if (issue.path.length === 1 && issue.path[0] === 'tenants' && merged.tenants === undefined && problems.size > 0) return;
  const key = settingOf(issue.path, sources, env);
  const value = valueAt(merged, issue.path);
  const got = (typeof value === 'string' && value !== '') || typeof value === 'number' ? ` (got "${shownValue(key, value)}")` : '';
  problems.add(key, `${key}: ${issue.message}${got}`);
}

/**
 * What connected mode needs beyond the schema: a strong key to encrypt real tenants' secrets at rest
 * (never a key lying next to them, as in sandbox mode), and for `start` the public URL events come to.
 */
function connectedProblems(
  merged: Record<string, unknown>,
  given: { env: Env; fromFile: Record<string, unknown>; sources: SettingSources },
  problems: ConfigProblems,
  forStart: boolean,
): void {
  const { env } = given;
  const key = typeof merged.secret_key === 'string' ? merged.secret_key : undefined;
  // named where it was set: the variable, else the file's key (a reference there may be what is unset)
  const inFile = !env.INTRABOT_SECRET_KEY && 'secret_key' in given.fromFile;
  const keyName = inFile ? `${given.sources.file ?? 'intrabot.yaml'}: secret_key` : 'INTRABOT_SECRET_KEY';
  if (!key?.trim()) {
    problems.add(
      keyName,
      `${keyName} is required in connected mode: it encrypts signing secrets and tokens at rest; it takes ${SECRET_KEY_FORMAT}: ${SECRET_KEY_HOWTO}`,
    );
  } else {
    const weakness = secretKeyWeakness(key);
    if (weakness) problems.add(keyName, `${keyName} is too weak: it ${weakness}; it takes ${SECRET_KEY_FORMAT}: ${SECRET_KEY_HOWTO}`);
  }
  if (forStart && merged.public_url === undefined) {
    const name = settingName(['public_url'], { env, envKeys: ENV_KEYS });
    problems.add(name, publicUrlMissingMessage(name));
  }
}

function readYaml(file: string, required: boolean, sources: SettingSources, problems: ConfigProblems): Record<string, unknown> {
  if (!existsSync(file)) {
    if (required) throw new ConfigError('config file', `config file ${file} does not exist`);
    return {};
  }
  // references are masked before parsing, so `${...}` inside a flow mapping is not YAML syntax
  const masked = maskEnvRefs(readFileSync(file, 'utf8'));
  const parsed: unknown = parseYaml(masked.text);
  if (parsed === null || parsed === undefined) return {};
  if (typeof parsed !== 'object' || Array.isArray(parsed)) throw new ConfigError(file, `${file}: must be a mapping of settings`);
  return resolveRefs(parsed, { sources, refs: masked.refs, problems }, []) as Record<string, unknown>;
}

/** `${env:NAME}` / `${env:NAME:-default}` in any string of the file, as in bot manifests. */
function resolveRefs(value: unknown, refs: { sources: SettingSources; refs: EnvRef[]; problems: ConfigProblems }, path: readonly (string | number)[]): unknown {
  if (typeof value === 'string') {
    try {
      return unmaskEnvRefs(value, refs.refs, refs.sources.env);
    } catch (error) {
      if (error instanceof MissingEnvRefError) {
        // a reference in the file is named where it is written, whatever the environment sets
        const key = settingName(path, { ...refs.sources, env: {}, envKeys: {} });
        refs.problems.add(key, `${key}: ${error.message}`);
        return undefined;
      }
      throw error;
    }
  }
  if (Array.isArray(value)) return value.map((v, i) => resolveRefs(v, refs, [...path, i]));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveRefs(v, refs, [...path, k])]));
  }
  return value;
}

function tenantsFrom(env: Env, fileTenants: unknown): unknown[] | undefined {
  const baseUrl = env.INTRABOT_BASE_URL;
  const token = env.INTRABOT_TOKEN;
  if (baseUrl || token) {
    if (!baseUrl) throw new ConfigError('INTRABOT_BASE_URL', 'INTRABOT_BASE_URL is required when INTRABOT_TOKEN is set');
    if (!token) throw new ConfigError('INTRABOT_TOKEN', 'INTRABOT_TOKEN is required when INTRABOT_BASE_URL is set');
    const tenant: Record<string, unknown> = { id: 'default', base_url: baseUrl, token };
    if (env.INTRABOT_CUSTOMER) tenant.customer = env.INTRABOT_CUSTOMER;
    if (env.INTRABOT_TIMEZONE) tenant.timezone = env.INTRABOT_TIMEZONE;
    const others = Array.isArray(fileTenants) ? fileTenants : [];
    return [tenant, ...others];
  }
  if (fileTenants === undefined) return undefined;
  return Array.isArray(fileTenants) ? fileTenants : [fileTenants];
}

function sandboxTenant(port: unknown): TenantConfig {
  const p = typeof port === 'number' ? port : 4010;
  return {
    id: SANDBOX_TENANT_ID,
    base_url: `http://127.0.0.1:${p}`,
    token: SANDBOX_TOKEN,
    event_prefix: 'service',
    customer: 'sandbox',
    timezone: 'Europe/Berlin',
  };
}

function toSeconds(envName: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 3_600) throw new ConfigError(envName, `${envName}: must be a number of seconds (0-3600), got "${value}"`);
  return n;
}

function toInteger(envName: string, value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isInteger(n)) throw new ConfigError(envName, `${envName}: must be a whole number, got "${value}"`);
  return n;
}

function toPort(envName: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65_535) throw new ConfigError(envName, `${envName}: must be a port number (0-65535), got "${value}"`);
  return n;
}

/** The value the configuration holds at a zod issue's path (to show beside the setting's name). */
function valueAt(merged: Record<string, unknown>, path: readonly PropertyKey[]): unknown {
  let at: unknown = merged;
  for (const part of path) at = at && typeof at === 'object' ? (at as Record<PropertyKey, unknown>)[part] : undefined;
  return at;
}

/** The setting an issue's path names, as the user set it (`INTRABOT_BOTS` for the list of bots). */
function settingOf(path: readonly PropertyKey[], sources: Parameters<typeof settingName>[1], env: Env): string {
  if (path[0] === 'bots') return botsSettingName(env);
  if (path[0] === 'middleware') return middlewareSettingName(env);
  return settingName(path, sources);
}

/** Where the runtime-wide middleware modules were named, for messages: the variable, else the file's key. */
export function middlewareSettingName(env: Env): string {
  return env.INTRABOT_MIDDLEWARE?.trim() ? 'INTRABOT_MIDDLEWARE' : 'intrabot.yaml: middleware';
}

/** Where the list of bots to deploy was set, for messages: the variable, else the file's key. */
export function botsSettingName(env: Env): string {
  return env.INTRABOT_BOTS?.trim() ? 'INTRABOT_BOTS' : 'intrabot.yaml: bots';
}
