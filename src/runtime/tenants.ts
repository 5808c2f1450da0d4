import type { Dispatcher } from 'undici';
import { createApiClient, type IntrabotApi } from '../api/create-api-client';
import type { RateLimiter } from '../api/rate-limiter';
import type { OnRateNotice } from '../api/rate-notice';
import type { SentRequest } from '../api/sent-request';
import { WALLS_KV, WallNames } from '../bots/provision/wall-names';
import type { Clock } from '../clock';
import type { Store } from '../store/store';
import type { TenantConfig } from './config/config';
import type { Logger } from '../log';

/** One tenant as the runtime holds it: its configuration, its paced API client, its walls by name. */
export interface TenantRuntime {
  config: TenantConfig;
  api: IntrabotApi;
  /** The tenant's walls by name, listed at provisioning and kept in the store (one instance per tenant, so lookups share a listing). */
  walls: WallNames;
}

export interface TenantsDeps {
  tenants: readonly TenantConfig[];
  clock: Clock;
  store: Store;
  /** The shared rate budget every client of a token paces itself under (across replicas). */
  limiter: RateLimiter;
  /** Outbound HTTP to the platform (tests may pass one). */
  dispatcher?: Dispatcher | undefined;
  logger: Logger;
  /** Told about pacing a person would notice (`intrabot run` prints it). */
  onRateNotice?: OnRateNotice | undefined;
  /** Told about every request a tenant's client sent (the runtime's metrics). */
  onSent?: ((tenant: string, request: SentRequest) => void) | undefined;
}

/** One client per tenant, each paced by the shared budget of its token. */
export function buildTenants(deps: TenantsDeps): ReadonlyMap<string, TenantRuntime> {
  const tenants = new Map<string, TenantRuntime>();
  for (const config of deps.tenants) {
    const api = createApiClient({
      baseUrl: config.base_url,
      token: config.token,
      clock: deps.clock,
      limiter: deps.limiter,
      ...(deps.dispatcher ? { dispatcher: deps.dispatcher } : {}),
      logger: { warn: (details, message) => deps.logger.warn(details, message) },
      ...(deps.onRateNotice ? { onRateNotice: deps.onRateNotice } : {}),
      ...(deps.onSent ? { onSent: (request: SentRequest) => deps.onSent?.(config.id, request) } : {}),
    });
    const walls = new WallNames({ tenant: config.id, api, clock: deps.clock, kv: deps.store.kv(WALLS_KV) });
    tenants.set(config.id, { config, api, walls });
  }
  return tenants;
}
