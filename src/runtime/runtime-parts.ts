import type { FastifyInstance } from 'fastify';
import type { BotRegistry } from '../bots/registry';
import type { Clock } from '../clock';
import type { SharedRateLimiter } from '../api/shared-rate-limiter';
import type { Scheduler } from '../scheduler/scheduler';
import type { Store } from '../store/store';
import type { AlertActivity } from './alerts/alert-activity';
import type { BotPauses } from './pause/bot-pauses';
import type { RuntimeConfig } from './config/config';
import type { DeliveryParts } from './sending/delivery';
import type { DeploymentTable } from './deployments';
import type { InboxParts } from './ingest/inbox-pipeline';
import type { RuntimeMetrics } from './operations/metrics';
import type { RateBudgetHistory } from './operations/rate-budget-history';
import type { RuntimeAddress } from './runtime-address';
import type { SecretRotations } from './rotation/secret-rotations';
import type { SnsFetch } from '../alerts/sns/sns-fetch';
import type { RuntimeStatus } from './start/runtime-status';

/**
 * What the build steps of `buildRuntime` make, read by the routes and the lifecycle: named parts, built
 * once, in the order the steps run. Not exported from the package: a user reaches a runtime through
 * `Runtime` (and its read-only `inspect()`).
 */
export interface RuntimeParts {
  config: RuntimeConfig;
  clock: Clock;
  /** The app the runtime's routes are on (the host's, with `intrabotPlugin`). */
  host: FastifyInstance;
  store: Store;
  registry: BotRegistry;
  table: DeploymentTable;
  /** The shared rate budget of every token (across replicas), as the API clients see it. */
  limiter: SharedRateLimiter;
  rateHistory: RateBudgetHistory;
  metrics: RuntimeMetrics;
  delivery: DeliveryParts;
  inbox: InboxParts;
  scheduler: Scheduler;
  /** Pausing and resuming bots (the admin routes and the console). */
  pauses: BotPauses;
  /** What the alert inputs answered lately (the console shows it). */
  alertActivity: AlertActivity;
  address: RuntimeAddress;
  status: RuntimeStatus;
  /** Rotations of the bots' signing secrets (`intrabot rotate-secret`). */
  rotations: SecretRotations;
  /** The GET the `sns` alert inputs fetch certificates and confirm subscriptions with (`RuntimeDeps.snsFetch`). */
  snsFetch?: SnsFetch | undefined;
}

const PARTS = new WeakMap<object, RuntimeParts>();

/** Remembers what a runtime is made of (`buildRuntime` does, once). */
export function rememberParts(runtime: object, parts: RuntimeParts): void {
  PARTS.set(runtime, parts);
}

/**
 * What a runtime is made of, for intrabot's own white-box tests (a test that must reach the outbox or a
 * handler context directly). Not exported from the package: users hold `Runtime` and `inspect()`.
 */
export function runtimePartsOf(runtime: object): RuntimeParts {
  const parts = PARTS.get(runtime);
  if (!parts) throw new Error('not a runtime made by buildRuntime');
  return parts;
}
