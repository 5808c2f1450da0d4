import type { Clock } from '../clock';
import type { AuditQuery, AuditView } from './views/audit-view';
import type { AlertsView, BotsView, DeliveriesView, DeliveryQuery, JobStarted, JobsView, OutboxQuery, OutboxView, RateBudgetView } from './console-views';

/**
 * What the console reads and does, as a narrow set of functions: the plugin knows nothing of the
 * runtime's insides (src/console/runtime-wiring.ts builds these from the runtime's parts, as
 * console-wiring-parts.ts narrows them), and tests pass fakes.
 * Every answer is a view of `console-views.ts`: ids, names, states and reasons, never a secret.
 */
export interface ConsoleDeps {
  /** Sandbox mode needs no token (loopback only); connected mode needs `adminToken`, and is off without one. */
  mode: 'sandbox' | 'connected';
  adminToken: string | undefined;
  /** `INTRABOT_PUBLIC_URL`: requests addressed to its host are taken as well as loopback names. */
  publicUrl?: string | undefined;
  /** In sandbox mode, the sandbox's playground (its address), linked from the page's top bar. */
  playgroundUrl?: string | undefined;
  clock: Clock;
  bots(): Promise<BotsView>;
  deliveries(query: DeliveryQuery): Promise<DeliveriesView>;
  /** Hands a dead (or waiting) delivery to its bot again; false when there is no such entry. */
  replay(entryId: string): Promise<boolean>;
  outbox(query: OutboxQuery): Promise<OutboxView>;
  /** Puts a dead letter back in line (or makes a waiting entry due now); false when there is none. */
  retryOutbox(id: string): Promise<boolean>;
  /** Deletes a dead letter or a pending entry for good; false when there is none (or it is being sent). */
  dropOutbox(id: string): Promise<boolean>;
  rateBudget(): Promise<RateBudgetView>;
  jobs(): Promise<JobsView>;
  /** Starts a scheduled job outside its slot; undefined when no schedule has that job. */
  runJob(tenant: string, bot: string, job: string): Promise<JobStarted | undefined>;
  alertInputs(): Promise<AlertsView>;
  /** What bots using the `auditLog` middleware did, newest first. */
  audit(query: AuditQuery): Promise<AuditView>;
  /** Pauses a deployed bot on a tenant (its deliveries kept, its jobs and messages held); throws `unknown_bot` for another. */
  pauseBot(tenant: string, bot: string, input: unknown): Promise<{ already: boolean }>;
  /** Resumes it: held deliveries handed back (or dropped with `discard`), held messages sent, slots caught up. */
  resumeBot(tenant: string, bot: string, input: unknown): Promise<{ resumed: boolean; released: number; discarded: number; messages: number }>;
  /** Every configured secret's value: the plugin scrubs them from every answer, whatever a view holds. */
  secrets(): Promise<readonly string[]>;
}
