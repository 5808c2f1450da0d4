import { randomUUID } from 'node:crypto';
import type { SandboxContext } from '../context';
import type { PlatformEvent } from '../events';
import { deliveryHeaders, maskedHeaders } from './delivery-headers';
import { endpointReceives, fullEventName } from './endpoint-matching';
import {
  DELIVERY_KIND,
  type DeliveryAttemptRecord,
  type DeliveryJobRecord,
  type DeliveryTargetFields,
  type ReportRecord,
  type TargetKind,
  type WebhookEndpointRecord,
} from './records';
import { sendAttempt, type AttemptRequest, type AttemptResult } from './send-attempt';

/** spec: Events, Outgoing webhooks — "retries run 1 minute and 10 minutes after the first attempt". */
export const RETRY_OFFSETS_MS = [60_000, 600_000] as const;

export interface DeliveryEngineOptions {
  /** The HTTP sender; tests of the engine alone may pass another. */
  send?: (input: AttemptRequest) => Promise<AttemptResult>;
}

export interface DispatchInput {
  targetKind: TargetKind;
  targetId: number;
  /** The full event name (`service.post.created`). */
  event: string;
  payload: Record<string, unknown>;
  retry?: boolean;
}

/**
 * Delivers outgoing webhooks and reports: builds the envelope, signs each attempt afresh, records
 * every attempt, and keeps what is due later (retries) in the database, where a clock tick finds it.
 * Sending never blocks the API request that caused it; the promises are tracked so `settle()` can
 * wait for them (tests, and the control API's `POST /_sandbox/deliveries/settle`).
 */
export class DeliveryEngine {
  private readonly inFlight = new Map<number, Promise<DeliveryJobRecord | undefined>>();
  private readonly send: (input: AttemptRequest) => Promise<AttemptResult>;
  private started = false;

  constructor(
    private readonly ctx: SandboxContext,
    options: DeliveryEngineOptions = {},
  ) {
    this.send = options.send ?? sendAttempt;
  }

  /** Listens to the platform's events and to clock ticks. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.ctx.events.on((event) => this.onEvent(event));
    this.ctx.onTick((now) => this.runDue(now));
  }

  /** Queues one envelope for one target and starts its first attempt; returns the job. */
  dispatch(input: DispatchInput): DeliveryJobRecord {
    const now = this.ctx.now();
    const envelope = {
      id: randomUUID(),
      event: input.event,
      version: 'v1',
      timestamp: Math.floor(now / 1000),
      customer: this.ctx.settings.customer,
      payload: input.payload,
    };
    const job = this.ctx.db.insert(DELIVERY_KIND.jobs, {
      target_kind: input.targetKind,
      target_id: input.targetId,
      delivery_id: envelope.id,
      event: input.event,
      body: JSON.stringify(envelope),
      first_attempt_at: null,
      attempts: 0,
      next_at: now,
      state: 'pending',
      retry: input.retry ?? true,
      created_at: now,
    } satisfies Omit<DeliveryJobRecord, 'id'>);
    if (input.targetKind === 'webhook') this.countDelivery(input.targetId);
    void this.run(job.id);
    return job;
  }

  /** Runs a job's due attempt now (or joins the one in flight); resolves with the job after it. */
  run(jobId: number): Promise<DeliveryJobRecord | undefined> {
    const running = this.inFlight.get(jobId);
    if (running) return running;
    const promise = this.attempt(jobId)
      .catch((error: unknown) => {
        process.emitWarning(`sandbox delivery failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`);
        return undefined;
      })
      .finally(() => this.inFlight.delete(jobId));
    this.inFlight.set(jobId, promise);
    return promise;
  }

  /** Starts every attempt that the clock has made due (retries after an advance, or after a restart). */
  runDue(now: number): void {
    for (const job of this.ctx.db.filter<DeliveryJobRecord>(DELIVERY_KIND.jobs, (j) => j.state === 'pending' && j.next_at !== null && j.next_at <= now)) {
      if (!this.inFlight.has(job.id)) void this.run(job.id);
    }
  }

  /** Resolves once no attempt is in flight (attempts that become due meanwhile included). */
  async settle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight.values()]);
  }

  /** Runs inside the request that emitted the event: it queues and returns, and never fails that request. */
  private onEvent(event: PlatformEvent): void {
    try {
      const name = fullEventName(event.event);
      for (const endpoint of this.ctx.db.filter<WebhookEndpointRecord>(DELIVERY_KIND.webhooks, (e) => endpointReceives(e, event))) {
        this.dispatch({ targetKind: 'webhook', targetId: endpoint.id, event: name, payload: event.payload });
      }
    } catch (error) {
      process.emitWarning(`sandbox could not queue ${event.event}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Attempts a job while an attempt is due: an advance past several retry times sends the overdue ones at once. */
  private async attempt(jobId: number): Promise<DeliveryJobRecord | undefined> {
    let job = this.ctx.db.get<DeliveryJobRecord>(DELIVERY_KIND.jobs, jobId);
    while (job && job.state === 'pending' && job.next_at !== null && job.next_at <= this.ctx.now()) {
      job = await this.attemptOnce(job);
    }
    return job;
  }

  private async attemptOnce(job: DeliveryJobRecord): Promise<DeliveryJobRecord | undefined> {
    const target = this.target(job);
    // spec: Outgoing webhook endpoint — inactive and revoked endpoints receive nothing, retries included
    if (!target) return this.ctx.db.update<DeliveryJobRecord>(DELIVERY_KIND.jobs, job.id, { state: 'cancelled', next_at: null });
    const startedAt = this.ctx.now();
    // spec: Events — each attempt carries a fresh Timestamp and is signed again; the body stays the same
    const timestamp = Math.floor(startedAt / 1000);
    const headers = deliveryHeaders(target, timestamp, job.body);
    const result = await this.send({ url: target.url, headers, body: job.body });
    // a reset while the request was out leaves nothing to record
    if (this.ctx.db.get<DeliveryJobRecord>(DELIVERY_KIND.jobs, job.id)?.delivery_id !== job.delivery_id) return undefined;
    const attempt = job.attempts + 1;
    this.record(job, target, { attempt, result, headers, startedAt });
    return this.ctx.db.update<DeliveryJobRecord>(DELIVERY_KIND.jobs, job.id, this.afterAttempt(job, attempt, result, startedAt));
  }

  private afterAttempt(job: DeliveryJobRecord, attempt: number, result: AttemptResult, startedAt: number): Partial<DeliveryJobRecord> {
    const first = job.first_attempt_at ?? startedAt;
    const base = { attempts: attempt, first_attempt_at: first };
    if (result.ok) return { ...base, state: 'delivered', next_at: null };
    const offset = job.retry ? RETRY_OFFSETS_MS[attempt - 1] : undefined;
    if (offset === undefined) return { ...base, state: 'failed', next_at: null };
    return { ...base, next_at: first + offset };
  }

  private record(
    job: DeliveryJobRecord,
    target: DeliveryTargetFields,
    a: { attempt: number; result: AttemptResult; headers: Record<string, string>; startedAt: number },
  ): void {
    this.ctx.db.insert(DELIVERY_KIND.attempts, {
      endpoint_id: job.target_kind === 'webhook' ? job.target_id : null,
      report_id: job.target_kind === 'report' ? job.target_id : null,
      job_id: job.id,
      url: target.url,
      event: job.event,
      delivery_id: job.delivery_id,
      attempt: a.attempt,
      status_code: a.result.status_code,
      error: a.result.error,
      ok: a.result.ok,
      request_headers: maskedHeaders(target, a.headers),
      body: job.body,
      created_at: a.startedAt,
    } satisfies Omit<DeliveryAttemptRecord, 'id'>);
    if (job.target_kind === 'webhook') this.ctx.db.update<WebhookEndpointRecord>(DELIVERY_KIND.webhooks, job.target_id, { last_used_at: a.startedAt });
  }

  /** The current target of a job (its secret and auth as they are now), or undefined when it may not receive. */
  private target(job: DeliveryJobRecord): DeliveryTargetFields | undefined {
    if (job.target_kind === 'report') return this.ctx.db.get<ReportRecord>(DELIVERY_KIND.reports, job.target_id);
    const endpoint = this.ctx.db.get<WebhookEndpointRecord>(DELIVERY_KIND.webhooks, job.target_id);
    return endpoint && endpoint.is_active && endpoint.revoked_at === null ? endpoint : undefined;
  }

  private countDelivery(endpointId: number): void {
    const endpoint = this.ctx.db.get<WebhookEndpointRecord>(DELIVERY_KIND.webhooks, endpointId);
    if (endpoint) this.ctx.db.update<WebhookEndpointRecord>(DELIVERY_KIND.webhooks, endpointId, { total_deliveries: endpoint.total_deliveries + 1 });
  }
}
