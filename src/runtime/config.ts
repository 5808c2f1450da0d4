import { existsSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { ConfigError } from '../errors';
import { ProxyConfigSchema } from '../proxy/proxy-keys';
import { MissingEnvRefError, maskEnvRefs, unmaskEnvRefs, type EnvRef } from '../bots/env-refs';
import { WEBHOOK_SECRETS_ENV, WebhookSecretsSchema, applyEnvWebhookSecrets } from './configured-secrets';
import { settingName, shownValue, type SettingSources } from './setting-names';

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
  redis_url: z.string().optional(),
  /** Keys in Redis start with this (several deployments may share one Redis). */
  redis_prefix: z
    .string()
    .regex(/^[A-Za-z0-9:_-]+$/, 'letters, digits, ":", "_" and "-" only')
    .default('intrabot'),
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
}

export const ENV_KEYS = {
  INTRABOT_PORT: 'port',
  INTRABOT_SANDBOX_PORT: 'sandbox_port',
  INTRABOT_PUBLIC_URL: 'public_url',
  INTRABOT_DATA_DIR: 'data_dir',
  INTRABOT_BOTS_DIR: 'bots_dir',
  INTRABOT_REDIS_URL: 'redis_url',
  INTRABOT_REDIS_PREFIX: 'redis_prefix',
  INTRABOT_SECRET_KEY: 'secret_key',
  INTRABOT_ADMIN_TOKEN: 'admin_token',
  INTRABOT_LOG_LEVEL: 'log_level',
  INTRABOT_HOST: 'host',
  INTRABOT_START_WAIT: 'start_wait',
} as const;

const NUMERIC = new Set(['port', 'sandbox_port', 'start_wait']);

/**
 * Reads the configuration. With neither tenants in `intrabot.yaml` nor `INTRABOT_BASE_URL` +
 * `INTRABOT_TOKEN`, the runtime is in sandbox mode against the embedded emulator.
 *
 * @example
 * const config = loadConfig({ env: process.env });
 * config.mode // 'sandbox'
 */
export function loadConfig(options: LoadConfigOptions = {}): RuntimeConfig {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const file = options.file ?? join(cwd, 'intrabot.yaml');
  const sources: SettingSources = { env, envKeys: ENV_KEYS, file: basename(file) };
  const fromFile = readYaml(file, options.file !== undefined, sources);
  const merged: Record<string, unknown> = { ...fromFile };
  for (const [envName, key] of Object.entries(ENV_KEYS)) {
    const value = env[envName];
    if (value === undefined || value === '') continue;
    merged[key] = key === 'start_wait' ? toSeconds(envName, value) : NUMERIC.has(key) ? toPort(envName, value) : value;
  }
  const bots = env.INTRABOT_BOTS;
  if (bots !== undefined && bots.trim() !== '') merged.bots = bots.split(',').map((name) => name.trim());
  const middleware = env.INTRABOT_MIDDLEWARE;
  if (middleware !== undefined && middleware.trim() !== '') merged.middleware = middleware.split(',').map((path) => path.trim());
  merged.tenants = tenantsFrom(env, fromFile.tenants);
  merged.mode = merged.tenants === undefined ? 'sandbox' : 'connected';
  if (merged.mode === 'sandbox') merged.tenants = [sandboxTenant(merged.sandbox_port)];
  applyEnvWebhookSecrets(merged.tenants as unknown[], env[WEBHOOK_SECRETS_ENV]);

  const result = RuntimeConfigSchema.safeParse(merged);
  if (!result.success) {
    const issue = result.error.issues[0];
    const key = issue ? settingOf(issue.path, sources, env) : '(config)';
    const value = issue ? valueAt(merged, issue.path) : undefined;
    const got = (typeof value === 'string' && value !== '') || typeof value === 'number' ? ` (got "${shownValue(key, value)}")` : '';
    throw new ConfigError(key, `${key}: ${issue?.message ?? 'is invalid'}${got}`);
  }
  const config = result.data;
  config.data_dir = resolve(cwd, config.data_dir);
  config.bots_dir = resolve(cwd, config.bots_dir);
  if (config.middleware) config.middleware = config.middleware.map((path) => resolve(cwd, path));
  if (config.mode === 'connected' && !config.secret_key) {
    // spec of the store: secrets are encrypted at rest; a connected runtime refuses to start without the key
    throw new ConfigError('INTRABOT_SECRET_KEY', 'INTRABOT_SECRET_KEY is required in connected mode: it encrypts signing secrets and tokens at rest');
  }
  return config;
}

function readYaml(file: string, required: boolean, sources: SettingSources): Record<string, unknown> {
  if (!existsSync(file)) {
    if (required) throw new ConfigError('config file', `config file ${file} does not exist`);
    return {};
  }
  // references are masked before parsing, so `${...}` inside a flow mapping is not YAML syntax
  const masked = maskEnvRefs(readFileSync(file, 'utf8'));
  const parsed: unknown = parseYaml(masked.text);
  if (parsed === null || parsed === undefined) return {};
  if (typeof parsed !== 'object' || Array.isArray(parsed)) throw new ConfigError(file, `${file}: must be a mapping of settings`);
  return resolveRefs(parsed, { sources, refs: masked.refs }, []) as Record<string, unknown>;
}

/** `${env:NAME}` / `${env:NAME:-default}` in any string of the file, as in bot manifests. */
function resolveRefs(value: unknown, refs: { sources: SettingSources; refs: EnvRef[] }, path: readonly (string | number)[]): unknown {
  if (typeof value === 'string') {
    try {
      return unmaskEnvRefs(value, refs.refs, refs.sources.env);
    } catch (error) {
      if (error instanceof MissingEnvRefError) {
        // a reference in the file is named where it is written, whatever the environment sets
        const key = settingName(path, { ...refs.sources, env: {}, envKeys: {} });
        throw new ConfigError(key, `${key}: ${error.message}`);
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
