import type { Dispatcher } from 'undici';
import { createApiClient, type IntrabotApi } from '../api/create-api-client';
import type { RateLimiter } from '../api/rate-limiter';
import type { OnRateNotice } from '../api/rate-notice';
import type { ClientHooks, SentRequest } from '../api/sent-request';
import { statusLabel } from './operations/metric-labels';
import type { RuntimeMetrics } from './operations/metrics';
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
  /** Where every request a tenant's client sent is counted. */
  metrics?: Pick<RuntimeMetrics, 'platformRequests' | 'rateBudgetWait'> | undefined;
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
      ...(deps.metrics ? { hooks: new PlatformRequestCount(deps.metrics, config.id) } : {}),
    });
    const walls = new WallNames({ tenant: config.id, api, clock: deps.clock, kv: deps.store.kv(WALLS_KV) });
    tenants.set(config.id, { config, api, walls });
  }
  return tenants;
}

/** A tenant's requests to the platform in the metrics: each answer by status, and how long it waited for budget. */
class PlatformRequestCount implements ClientHooks {
  constructor(
    private readonly metrics: Pick<RuntimeMetrics, 'platformRequests' | 'rateBudgetWait'>,
    private readonly tenant: string,
  ) {}

  sent(request: SentRequest): void {
    this.metrics.platformRequests.inc({ tenant: this.tenant, method: request.method, status: statusLabel(request.status) });
    this.metrics.rateBudgetWait.observe({ tenant: this.tenant, budget: request.budget }, request.waitedMs / 1000);
  }
}
