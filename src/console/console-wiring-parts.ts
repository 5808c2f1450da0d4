import type { AuditRecord } from '../bots/audit-log';
import type { BotManifest } from '../bots/manifest';
import type { ProvisionedBot } from '../bots/provision/provisioner';
import type { BotRegistry } from '../bots/registry';
import type { Clock } from '../clock';
import type { Logger } from '../log';
import type { Scheduler } from '../scheduler/scheduler';
import type { PauseRecord } from '../store/paused-bots';
import type { Store } from '../store/store';
import type { AlertNotification, StartingView } from './console-views';
import type { HandledInput } from './views/delivery-rows';
import type { RateKeyInput } from './views/rate-view';

/** A configured tenant, as far as the console reads it (the runtime's `TenantConfig` has more). */
export interface ConsoleTenant {
  id: string;
  base_url: string;
  token: string;
  timezone: string;
}

/** One bot deployed to one tenant, as far as the console reads it (the runtime's `Deployment` has more). */
export interface ConsoleDeployment {
  tenant: { config: ConsoleTenant };
  bot: { name: string };
  manifest: BotManifest;
}

/**
 * The runtime's parts the console reads and acts on, each narrowed to what the console uses: defined
 * here, so the console needs nothing of `src/runtime/`; the runtime passes its parts (`mountRoutes`), and
 * tests pass fakes.
 */
export interface ConsoleWiringParts {
  config: {
    mode: 'sandbox' | 'connected';
    admin_token?: string | undefined;
    public_url?: string | undefined;
    secret_key?: string | undefined;
    tenants: readonly ConsoleTenant[];
    proxy?: { keys: readonly { key: string }[] } | undefined;
  };
  clock: Clock;
  /** The app the routes are on: its logger tells of a job started from the console that could not run. */
  host: { log: Pick<Logger, 'warn'> };
  store: Pick<Store, 'inbox' | 'outbox' | 'kv' | 'secrets'>;
  table: {
    defaultTenant(): string;
    all(): readonly ConsoleDeployment[];
    get(tenant: string, bot: string): { manifest: BotManifest } | undefined;
    provisionedBot(tenant: string, bot: string): ProvisionedBot | undefined;
    /** Provisioning's result for the tenant, once it has answered. */
    provisioning(tenant: string): unknown;
  };
  registry: Pick<BotRegistry, 'bots' | 'failures'>;
  scheduler: Pick<Scheduler, 'listJobs' | 'runNow'>;
  rateHistory: { readonly bucketMs: number; readonly spanMs: number; snapshot(): readonly RateKeyInput[] };
  /** What the alert inputs answered lately (the alert routes record it). */
  alertActivity: {
    recent(): readonly AlertNotification[];
    countsOf(tenant: string, bot: string, input: string): { accepted: number; refused: number; failed: number };
    lastOf(tenant: string, bot: string, input: string): AlertNotification | undefined;
  };
  pauses: {
    list(): Promise<readonly PauseRecord[]>;
    locate(bot: string, tenant: string | undefined): { tenant: string; bot: string };
    pause(at: { tenant: string; bot: string }, input: unknown, by: 'console'): Promise<{ already: boolean }>;
    resume(
      at: { tenant: string; bot: string },
      input: unknown,
      by: 'console',
    ): Promise<{ resumed: boolean; released: number; discarded: number; messages: number }>;
  };
  status: { readonly ready: boolean; readonly provisioning: { snapshot(): StartingView | undefined } };
  inbox: {
    deliveryLog: { recent(limit: number): Promise<readonly HandledInput[]> };
    auditTrail: { recent(limit: number): Promise<readonly AuditRecord[]> };
    worker: { wake(): void };
  };
  delivery: { sender: { wake(): void } };
}
