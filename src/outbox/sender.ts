import type { Clock, TimerHandle } from '../clock';
import { keepAlive } from '../clock/keep-alive';
import { WorkerLanes, type LaneWorker } from '../clock/worker-lanes';
import type { KvSpace } from '../store/kv';
import type { QueueLease } from '../store/queue';
import type { Store } from '../store/store';
import { attemptKey, forgetEntry, readNote, writeNote } from './attempt-note';
import { classifyFailure, DEFAULT_BACKOFF, planRetry, RATE_WINDOW_MS, retryDelayMs, type BackoffPolicy } from './retry-plan';
import { DEFAULT_COALESCE, digestKey, prepareDigest, type CoalesceOptions, type DigestState } from './coalesce';
import { OutboxRecordSchema, withText, type OutboxEntry, type OutboxRecord } from './entry';
import { DONE_TTL_MS, doneKey, OUTBOX_KV } from './outbox';
import { messagesWithin } from '../api/pacing';
import { CreatedItems, ITEM_CLAIM_TTL_MS } from './created-items';
import { RECONCILE_SKEW_MS, reconcileEntry } from './reconcile';
import { tracedSendClient, type SendClient } from './send-client';
import type { TraceContext } from '../tracing/spans';
import { traceOutboxEntry } from '../tracing/trace-sites';
import { tracingOn } from '../tracing/tracing-switch';
import { isReconcilable, isRepeatable, sendEntry, type SendOutcome, type TokenUser } from './send-entry';

export type { CreatedByEntry, OutboxSenderOptions, SenderLogger, SendSteps } from './sender-options';
import type { OutboxSenderOptions, SendSteps } from './sender-options';

type Delivery = { kind: 'sent' } | { kind: 'drop'; reason: string };

/**
 * Works off the outbox: takes the next due entry of any target (one per target at a time, in
 * order), sends it with a single attempt through the paced client, and then completes it, schedules
 * a retry with jittered backoff until its deadline, or moves it to the dead letters with the
 * platform's message. Creates whose outcome is unknown are reconciled before any resend; storms are
 * coalesced into digests. Several senders (in one process or many) can share one store.
 *
 * @example
 * const sender = new OutboxSender({ store, clock, steps: { clientFor: (tenant) => clients.get(tenant) } });
 * sender.start();
 * // ...
 * await sender.stop();
 */
export class OutboxSender implements LaneWorker {
  private readonly o: Required<Omit<OutboxSenderOptions, 'coalesce' | 'logger' | 'steps'>> & Pick<OutboxSenderOptions, 'logger'>;
  private readonly steps: SendSteps;
  private readonly coalesce: CoalesceOptions | undefined;
  private readonly kv: KvSpace;
  private readonly items: CreatedItems;
  private readonly abort = new AbortController();
  /** A wait beyond the rate window was reported (once per sender: the value is the news, not each entry). */
  private farWaitLogged = false;
  private readonly lanes: WorkerLanes;

  constructor(options: OutboxSenderOptions) {
    this.o = {
      lanes: 4,
      leaseMs: 60_000,
      pollMs: 500,
      backoff: DEFAULT_BACKOFF,
      uncertainDelayMs: 30_000,
      limitPerMinute: () => 60,
      random: Math.random,
      ...options,
    };
    this.steps = options.steps;
    this.coalesce = options.coalesce === false ? undefined : { ...DEFAULT_COALESCE, ...options.coalesce };
    this.kv = options.store.kv(OUTBOX_KV);
    this.items = new CreatedItems(options.store.claims, this.kv);
    this.lanes = new WorkerLanes({
      clock: this.o.clock,
      lanes: this.o.lanes,
      pollMs: this.o.pollMs,
      worker: this,
    });
  }

  start(): void {
    this.lanes.start();
  }

  /** Look for work now (after an enqueue in this process). */
  wake(): void {
    this.lanes.wake();
  }

  /**
   * Stops taking entries. In-flight entries get `graceMs` to finish; after that their requests are
   * aborted and the entries released (an aborted create is reconciled by whoever sends it next).
   */
  async stop(graceMs = 10_000): Promise<void> {
    const all = this.lanes.stop();
    let timer: TimerHandle | undefined;
    const grace = new Promise<void>((resolve) => (timer = this.o.clock.setTimeout(resolve, graceMs)));
    await Promise.race([all, grace]);
    if (timer) this.o.clock.clearTimeout(timer);
    this.abort.abort(new Error('the outbox sender stopped'));
    await all;
  }

  /** One lane's take (`LaneWorker`): the next due entry, worked off. */
  takeOne(): Promise<boolean> {
    return this.runOnce();
  }

  /** One lane's take failed (the store): told, and the lane goes on. */
  takeFailed(error: unknown): void {
    this.o.logger?.warn?.({ error: classifyFailure(error).message }, 'outbox: the store failed; trying again');
  }

  /** Takes and works off one due entry; false when none was due. */
  async runOnce(): Promise<boolean> {
    const lease = await this.o.store.outbox.reserve(this.o.leaseMs);
    if (!lease) return false;
    await this.process(lease);
    return true;
  }

  private async process(lease: QueueLease): Promise<void> {
    const parsed = OutboxRecordSchema.safeParse(lease.payload);
    if (!parsed.success) {
      await this.o.store.outbox.deadLetter(lease, `not an outbox entry: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
      return;
    }
    const record = parsed.data;
    if (await this.steps.hold?.(lease, record)) return;
    if (this.o.clock.now() > record.deadlineAt) {
      // a message that could not go out in time (the runtime was down) is news no longer: not sent late
      await this.o.store.outbox.deadLetter(lease, `deadline passed before it could be sent${lease.lastError ? `; last error: ${lease.lastError}` : ''}`);
      return;
    }
    // a long send (pacing waits, uploads, a digest of many parts) keeps its lease: it runs out only when this process is gone
    const stopBeat = keepAlive(this.o.clock, this.o.leaseMs / 3, () => this.o.store.outbox.extend(lease, this.o.leaseMs));
    try {
      const delivery = tracingOn()
        ? await traceOutboxEntry(lease, record, (trace) => this.deliver(lease, record, trace))
        : await this.deliver(lease, record, undefined);
      if (delivery.kind === 'drop') await this.o.store.outbox.deadLetter(lease, delivery.reason);
      else await this.finish(lease, record);
    } catch (error) {
      await this.fail(lease, record, error);
    } finally {
      stopBeat();
    }
  }

  /** Delivered: remembered first (a crash before `complete` must not let a keyed enqueue queue it again), then removed. */
  private async finish(lease: QueueLease, record: OutboxRecord): Promise<void> {
    if (record.keyed) await this.kv.set(doneKey(lease.id), true, { ttlMs: DONE_TTL_MS });
    if (await this.o.store.outbox.complete(lease)) await forgetEntry(this.kv, lease.id, blobRefsOf(record.entry));
  }

  private async deliver(lease: QueueLease, record: OutboxRecord, trace: TraceContext | undefined): Promise<Delivery> {
    const tenantClient = this.steps.clientFor(record.entry.tenant);
    if (!tenantClient) return { kind: 'drop', reason: `no client for tenant "${record.entry.tenant}"` };
    const client = tracedSendClient(tenantClient, trace);
    const entry = this.steps.resolve ? await this.steps.resolve(record.entry) : record.entry;
    const digest = this.coalesce ? await prepareDigest(this.coalescer(), lease, record) : undefined;
    if (!digest) return this.attempt(client, lease, record, entry, attemptKey(lease.id));
    return this.sendDigest(client, lease, record, entry, digest);
  }

  private async sendDigest(client: SendClient, lease: QueueLease, record: OutboxRecord, head: OutboxEntry, digest: DigestState): Promise<Delivery> {
    for (let part = digest.sent; part < digest.parts.length; part += 1) {
      const entry = withText(head, digest.parts[part] ?? '');
      const delivery = await this.attempt(client, lease, record, entry, attemptKey(lease.id, part));
      if (delivery.kind === 'drop') return delivery;
      digest.sent = part + 1;
      await this.kv.set(digestKey(lease.id), digest as never, { ttlMs: this.ttlOf(record) });
    }
    return { kind: 'sent' };
  }

  /** One request for one message: settle an earlier uncertain attempt first, note the attempt, send. */
  private async attempt(client: SendClient, lease: QueueLease, record: OutboxRecord, entry: OutboxEntry, key: string): Promise<Delivery> {
    const note = await readNote(this.kv, key);
    if (note?.maybeSent) {
      const settled = await this.settle(client, record, entry, note.firstAt, key);
      if (settled === 'drop') return { kind: 'drop', reason: 'the outcome of an earlier attempt is unknown and on_uncertain is drop: not resent' };
      if (settled) return this.after(entry, settled, lease.id);
    }
    const firstAt = note?.firstAt ?? this.o.clock.now();
    const ttlMs = this.ttlOf(record);
    await writeNote(this.kv, key, { firstAt, maybeSent: true }, ttlMs);
    let outcome: SendOutcome;
    try {
      const ctx = { client, secrets: this.o.store.secrets, kv: this.kv, entryId: lease.id, ttlMs, signal: this.abort.signal };
      outcome = await sendEntry(entry, ctx);
    } catch (error) {
      if (classifyFailure(error).certainlyNotSent && !this.abort.signal.aborted) await writeNote(this.kv, key, { firstAt, maybeSent: false }, ttlMs);
      throw error;
    }
    await this.own(entry.tenant, outcome, key);
    return this.after(entry, outcome, lease.id);
  }

  /**
   * What an attempt created is claimed for it before the entry counts as delivered, so no other entry's
   * reconcile takes it for its own. A store failure here fails the entry: its retry reconciles and claims
   * the item then (the attempt note still says it may have been sent).
   */
  private async own(tenant: string, outcome: SendOutcome, key: string): Promise<void> {
    const created = outcome.created;
    if (!created) return;
    if (!(await this.items.claim(tenant, { kind: created.kind, id: created.id }, key))) {
      this.o.logger?.warn?.({ kind: created.kind, id: created.id }, 'outbox: an item this attempt created was claimed by another entry');
    }
    if (created.tokenUser) await this.items.noteTokenUser(tenant, created.tokenUser.id);
  }

  /**
   * An earlier attempt may have arrived. What can be read back is looked up on the platform (found:
   * done, nothing resent); awards are safe to resend; other writes follow `on_uncertain`.
   */
  private async settle(client: SendClient, record: OutboxRecord, entry: OutboxEntry, sinceMs: number, key: string): Promise<SendOutcome | 'drop' | undefined> {
    if (isRepeatable(entry)) return undefined;
    // the claims of items in the search window may have expired by now: sending again is the safe side
    if (isReconcilable(entry) && this.o.clock.now() - sinceMs > ITEM_CLAIM_TTL_MS - RECONCILE_SKEW_MS) return undefined;
    const result = await reconcileEntry(client, entry, {
      sinceMs,
      claim: (item) => this.items.claim(entry.tenant, item, key),
      tokenUserId: await this.items.tokenUser(entry.tenant),
      signal: this.abort.signal,
    });
    if (result.kind === 'found') return { created: result.item };
    if (result.kind === 'absent' || record.onUncertain === 'resend') return undefined;
    return 'drop';
  }

  private async after(entry: OutboxEntry, outcome: SendOutcome, entryId: string): Promise<Delivery> {
    try {
      const created = outcome.created;
      if (created && (created.kind === 'post' || created.kind === 'comment')) {
        const alert =
          entry.kind === 'post' && entry.alert && entry.bot
            ? {
                alert: {
                  bot: entry.bot,
                  refs: entry.alert.refs,
                  wallId: entry.wallId,
                  text: entry.body,
                  ...(entry.alert.group ? { group: entry.alert.group } : {}),
                },
              }
            : {};
        await this.steps.onCreated?.({ tenant: entry.tenant, ...created, kind: created.kind, entryId, ...alert });
      }
      if (outcome.sentText !== undefined) await this.steps.onSentText?.({ tenant: entry.tenant, text: outcome.sentText });
    } catch (error) {
      this.o.logger?.warn?.({ error: classifyFailure(error).message }, 'outbox: a delivery hook failed');
    }
    return { kind: 'sent' };
  }

  private async fail(lease: QueueLease, record: OutboxRecord, error: unknown): Promise<void> {
    const queue = this.o.store.outbox;
    const now = this.o.clock.now();
    if (this.abort.signal.aborted) {
      await queue.retry(lease, now, 'released: the sender stopped');
      return;
    }
    const failure = classifyFailure(error);
    // ids, kinds and error codes only: never the message text, never a URL
    this.o.logger?.warn?.(
      { entry: lease.id, target: lease.target, kind: record.entry.kind, attempt: lease.attempts, failure: failure.kind, error: failure.message },
      'outbox: delivery failed',
    );
    if (failure.kind === 'dead') {
      await queue.deadLetter(lease, failure.message);
      return;
    }
    const unreadable = !isReconcilable(record.entry) && !isRepeatable(record.entry);
    if (failure.kind === 'uncertain' && unreadable && record.onUncertain === 'drop') {
      await queue.deadLetter(lease, `outcome unknown (${failure.message}); not resent (on_uncertain: drop)`);
      return;
    }
    if (failure.kind === 'rate' && failure.retryAfterMs !== undefined && failure.retryAfterMs > RATE_WINDOW_MS && !this.farWaitLogged) {
      this.farWaitLogged = true;
      this.o.logger?.warn?.(
        { retryAfterMs: failure.retryAfterMs, boundMs: RATE_WINDOW_MS },
        `outbox: the platform asked to wait ${Math.round(failure.retryAfterMs / 1000)} s, beyond its 60 s rate window; waiting 60 s at most (is a clock wrong?)`,
      );
    }
    const floorMs = failure.kind === 'uncertain' && isReconcilable(record.entry) ? this.o.uncertainDelayMs : 0;
    const delay = retryDelayMs({ failure, attempts: lease.attempts, floorMs, policy: this.o.backoff, random: this.o.random });
    const plan = planRetry(now, delay, record.deadlineAt);
    if (plan.kind === 'expired') await queue.deadLetter(lease, `deadline passed; last error: ${failure.message}`);
    else await queue.retry(lease, plan.atMs, failure.message);
  }

  private coalescer(): Parameters<typeof prepareDigest>[0] {
    const options = this.coalesce ?? DEFAULT_COALESCE;
    return {
      queue: this.o.store.outbox,
      kv: this.kv,
      options,
      capacityOf: (target) => messagesWithin(this.o.limitPerMinute(target), 60_000, options.windowMs),
      ttlMs: 2 * 24 * 60 * 60_000,
      now: () => this.o.clock.now(),
    };
  }

  private ttlOf(record: OutboxRecord): number {
    return Math.max(60_000, record.deadlineAt - this.o.clock.now()) + 24 * 60 * 60_000;
  }
}

function blobRefsOf(entry: OutboxEntry): string[] {
  if (entry.kind !== 'post' || !entry.media) return [];
  return entry.media.flatMap((m) => (m.blobRef ? [m.blobRef] : []));
}
