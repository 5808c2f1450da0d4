import { request } from 'undici';
import { createApiClient } from '../../api/create-api-client';
import { ApiError, ApiUnauthorizedError } from '../../api/errors';
import type { OnRateNotice } from '../../api/rate-notice';
import { commandOverlaps } from '../../bots/command-overlaps';
import { requiredScopes } from '../../bots/provision/scopes';
import { manifestForTenant, deploysTo, type BotManifest } from '../../bots/manifest';
import { listWalls, namedWallTargets } from '../../bots/provision/wall-names';
import { loadBots } from '../../bots/registry';
import type { Clock } from '../../clock';
import type { Store } from '../../store/store';
import type { RuntimeConfig, TenantConfig } from '../config/config';
import { withSandboxEnv } from '../config/sandbox-env';

export interface Check {
  name: string;
  status: 'ok' | 'warn' | 'fail';
  detail: string;
  /** What to do about it, for warn and fail. */
  fix?: string;
}

export interface DoctorInput {
  config: RuntimeConfig;
  clock: Clock;
  store: Store;
  env: Readonly<Record<string, string | undefined>>;
  /** Check only these bots (default: every bot in the bots directory). */
  only?: readonly string[];
  /** Tolerated clock skew; signatures are checked within 5 minutes, so a minute is already suspicious. */
  maxSkewMs?: number;
  /** Told each check as it completes, in order (the CLI prints it then, not once all are done). */
  onCheck?: (check: Check) => void;
  /** Told about long waits for rate budget and clamped rate headers (the CLI prints them). */
  onRateNotice?: OnRateNotice;
}

/** Where each check goes as it completes. */
type Report = (check: Check) => void;

const DAY_MS = 86_400_000;

/**
 * `intrabot doctor`: is this deployment able to work? Token valid and not about to expire, scopes
 * against the bots' needs, the platform reachable, clock skew against the platform's `Date` header
 * (signatures depend on it), each bot's endpoint answering a ping end to end, the store healthy.
 */
export async function runDoctor(input: DoctorInput): Promise<Check[]> {
  const checks: Check[] = [];
  const report: Report = (check) => {
    checks.push(check);
    input.onCheck?.(check);
  };
  report(await checkStore(input.store));
  const env = input.config.mode === 'sandbox' ? withSandboxEnv(input.env, process.cwd()) : input.env;
  const registry = await loadBots(input.config.bots_dir, env, input.only);
  for (const failure of registry.failures) {
    report({
      name: `bot ${failure.name ?? failure.dir}`,
      status: 'fail',
      detail: failure.error.message,
      fix: 'fix the manifest or module; the other bots still run',
    });
  }
  for (const overlap of commandOverlaps(
    registry.bots,
    input.config.tenants.map((tenant) => tenant.id),
  )) {
    report({
      name: `command /${overlap.command}`,
      status: 'warn',
      detail: overlap.summary,
      fix: overlap.fix,
    });
  }
  for (const tenant of input.config.tenants) {
    const manifests = registry.bots.filter((b) => deploysTo(b.manifest, tenant.id)).map((b) => manifestForTenant(b.manifest, tenant.id));
    await checkTenant(input, tenant, manifests, report);
  }
  return checks;
}

async function checkStore(store: Store): Promise<Check> {
  try {
    return { name: 'store', status: 'ok', detail: `${store.kind}, schema version ${await store.schemaVersion()}` };
  } catch (error) {
    return storeFailure(store.kind, error);
  }
}

/** The store check when the store does not answer (or cannot even be opened), with where to look. */
export function storeFailure(kind: string, error: unknown): Check {
  return { name: 'store', status: 'fail', detail: message(error), fix: STORE_FIX[kind] ?? 'check the store settings and that its server answers' };
}

/** Where to look when the store does not answer, by backend. */
const STORE_FIX: Readonly<Record<string, string>> = {
  sqlite: 'check INTRABOT_DATA_DIR permissions and free disk space',
  redis: 'check INTRABOT_REDIS_URL and that Redis answers there',
  postgres: 'check INTRABOT_DATABASE_URL, that PostgreSQL answers there, and run intrabot migrate if the schema is behind',
};

async function checkTenant(input: DoctorInput, tenant: TenantConfig, manifests: ReturnType<typeof manifestForTenant>[], report: Report): Promise<void> {
  const name = (what: string): string => `${tenant.id}: ${what}`;
  const skew = await clockSkew(tenant.base_url, input.clock);
  if (skew === undefined) {
    report({
      name: name('reachable'),
      status: 'fail',
      detail: `${tenant.base_url} does not answer`,
      fix: 'check the base URL and the network path to the platform',
    });
    return;
  }
  report({ name: name('reachable'), status: 'ok', detail: tenant.base_url });
  const maxSkew = input.maxSkewMs ?? 60_000;
  report(
    Math.abs(skew) <= maxSkew
      ? { name: name('clock skew'), status: 'ok', detail: `${Math.round(skew / 1000)} s` }
      : {
          name: name('clock skew'),
          status: 'fail',
          detail: `${Math.round(skew / 1000)} s against the platform's Date header`,
          fix: 'sync this machine with NTP: signatures older than 5 minutes are refused',
        },
  );

  const api = createApiClient({
    baseUrl: tenant.base_url,
    token: tenant.token,
    clock: input.clock,
    retry: { attempts: 1 },
    ...(input.onRateNotice ? { onRateNotice: input.onRateNotice } : {}),
  });
  try {
    const info = (await api.token.get()) as { name: string; scopes: string[]; expires_at: string | null };
    const expires = info.expires_at ? Date.parse(info.expires_at) : undefined;
    const left = expires === undefined ? undefined : expires - input.clock.now();
    report(
      left !== undefined && left < 14 * DAY_MS
        ? {
            name: name('token'),
            status: 'warn',
            detail: `"${info.name}" expires ${info.expires_at}`,
            fix: 'issue a new token in the admin panel before it expires',
          }
        : { name: name('token'), status: 'ok', detail: `"${info.name}"${info.expires_at ? `, expires ${info.expires_at}` : ', no expiry'}` },
    );
    for (const manifest of manifests) {
      const missing = requiredScopes(manifest).filter((s) => !info.scopes.includes(s));
      report(
        missing.length
          ? {
              name: name(`scopes for ${manifest.name}`),
              status: 'fail',
              detail: `missing ${missing.join(', ')}`,
              fix: 'add the scopes to the token; the bot is switched off until then',
            }
          : { name: name(`scopes for ${manifest.name}`), status: 'ok', detail: 'all present' },
      );
      if (manifest.events.length) report(await pingBot(input.store, api, tenant.id, manifest.name));
    }
    if (info.scopes.includes('read:walls')) for (const check of await checkWallTargets(api, tenant.id, manifests, input.clock)) report(check);
  } catch (error) {
    report({
      name: name('token'),
      status: 'fail',
      detail: message(error),
      fix: error instanceof ApiUnauthorizedError ? 'the token is invalid, expired or restricted to another IP: issue a new one' : 'see the error',
    });
  } finally {
    await api.close();
  }
}

/**
 * Targets that name their wall, checked against one listing of the tenant's walls: a name the tenant
 * lacks is a configuration error (the alert inputs answer 422 for that target, other sends are refused).
 */
async function checkWallTargets(api: ReturnType<typeof createApiClient>, tenant: string, manifests: readonly BotManifest[], clock: Clock): Promise<Check[]> {
  const named = namedWallTargets(manifests);
  if (named.length === 0) return [];
  const listing = await listWalls(api, clock);
  return named.map(({ bot, target, wall, field }): Check => {
    const name = `${tenant}: wall of ${bot}/${target}`;
    const id = listing.ids[wall.toLowerCase()];
    if (id !== undefined) return { name, status: 'ok', detail: `"${wall}" is wall ${id}` };
    return {
      name,
      status: 'fail',
      detail: `no wall named "${wall}"`,
      fix: `fix ${field} of bot ${bot} (or the variable it reads), then restart or run intrabot provision; until then what it sends there is refused`,
    };
  });
}

async function pingBot(store: Store, api: ReturnType<typeof createApiClient>, tenant: string, bot: string): Promise<Check> {
  const name = `${tenant}: webhook of ${bot}`;
  const record = await store.provisioning.get(tenant, 'webhook_endpoint', bot);
  if (!record) return { name, status: 'warn', detail: 'not provisioned yet', fix: 'start the runtime (or run intrabot provision)' };
  try {
    const answer = (await api.webhooks.ping(record.remoteId)) as { ok: boolean; status: string };
    if (answer.ok) return { name, status: 'ok', detail: `ping ${answer.status}` };
    // the runtime answered but refused the signature: the secret it holds is not the endpoint's
    if (/\b401\b/.test(answer.status)) {
      return {
        name,
        status: 'fail',
        detail: `ping ${answer.status}`,
        fix: 'the runtime holds another signing secret than the endpoint: run intrabot provision, then restart the runtime',
      };
    }
    return { name, status: 'fail', detail: `ping ${answer.status}`, fix: 'is the runtime running and INTRABOT_PUBLIC_URL reachable from the platform?' };
  } catch (error) {
    return { name, status: 'fail', detail: message(error), fix: 'run intrabot provision to recreate the endpoint' };
  }
}

/** The platform's clock minus ours, from its `Date` header; undefined when it does not answer. */
async function clockSkew(baseUrl: string, clock: Clock): Promise<number | undefined> {
  try {
    const before = clock.now();
    const res = await request(new URL('/api/open/v1/token', baseUrl), { method: 'GET', headersTimeout: 10_000, bodyTimeout: 10_000 });
    await res.body.dump();
    const after = clock.now();
    const date = res.headers.date;
    const theirs = typeof date === 'string' ? Date.parse(date) : Number.NaN;
    if (Number.isNaN(theirs)) return 0;
    // the Date header has whole seconds: compare with the middle of the exchange, within a second
    const skew = theirs - (before + after) / 2;
    return Math.abs(skew) < 1_000 ? 0 : skew;
  } catch {
    return undefined;
  }
}

function message(error: unknown): string {
  return error instanceof ApiError || error instanceof Error ? error.message : String(error);
}
