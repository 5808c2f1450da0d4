import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Clock } from '../clock';
import { IntrabotError } from '../errors';
import type { Store } from '../store/store';
import type { TraceContext } from '../tracing/spans';
import { traceOutboxEnqueue } from '../tracing/trace-sites';
import type { TraceCarrier } from '../tracing/trace-carrier';
import { tracingOn } from '../tracing/tracing-switch';
import { parseOrThrow } from '../validation';
import { OnUncertainSchema, OutboxEntrySchema, targetOf, type OnUncertain, type OutboxEntry, type OutboxKind, type OutboxRecord } from './entry';
import { kindOf } from './kinds/send-kinds';
import type { OutboxSender } from './sender';

/** Where the outbox keeps its own notes (media ids, attempt records, digests, stashed files). */
export const OUTBOX_KV = 'outbox';

/** The kv key remembering that a caller-keyed entry was delivered. */
export function doneKey(id: string): string {
  return `done:${id}`;
}

/** How long a delivered caller-keyed entry is remembered (a handler retry comes well within it). */
export const DONE_TTL_MS = 3 * 24 * 60 * 60_000;

/** How long an entry may keep retrying, by default (the issue: 24 hours). */
export const DEFAULT_DEADLINE_MS = 24 * 60 * 60_000;

export interface OutboxOptions {
  store: Pick<Store, 'outbox' | 'kv'>;
  clock: Clock;
  /** Per kind of message: how long it may keep retrying. Default 24 h for every kind. */
  deadlines?: Partial<Record<OutboxKind, number>>;
  /** Per kind: what to do with a write the platform cannot read back when its outcome is unknown. Default `resend`. */
  onUncertain?: Partial<Record<OutboxKind, OnUncertain>>;
  /** The sender of this process, woken after each enqueue instead of waiting for its next poll. */
  sender?: Pick<OutboxSender, 'wake'>;
}

export const EnqueueOptionsSchema = z.object({
  deadlineMs: z.number().int().positive().optional(),
  onUncertain: OnUncertainSchema.optional(),
  /** Not sent before this time (ms on the clock). */
  notBeforeMs: z.number().int().nonnegative().optional(),
  /** Overrides the target (order key) derived from the entry. */
  target: z.string().min(1).optional(),
  /** Merging into digests is allowed for this entry (default true). */
  coalescible: z.boolean().optional(),
  /** The bot queuing it: the entry is held while that bot is paused. */
  bot: z.string().min(1).optional(),
  /**
   * Held on purpose until `notBeforeMs` (quiet hours): it waits in a line of its own beside its target's,
   * so what is sent to the same target meanwhile (a command's answer) is not held up behind it.
   */
  held: z.boolean().optional(),
  /**
   * A caller-chosen id that makes the enqueue idempotent: enqueueing it again (a handler retried after
   * a crash) while it waits, or within 3 days after it was delivered, queues nothing and answers the same id.
   */
  id: z.string().min(1).max(200).optional(),
  /** The trace context of the step queuing it (a handler run's), when tracing is on: the entry's spans go under it. */
  trace: z.custom<TraceContext>((value) => typeof value === 'object' && value !== null, 'expected a trace context').optional(),
});
export type EnqueueOptions = z.input<typeof EnqueueOptionsSchema>;

/**
 * The front door of the outbox: validates an entry, persists it, and answers its id. The promise
 * resolves only once the store has committed the entry (DESIGN.md: persisted before it is
 * acknowledged), so a crash after it resolved cannot lose the message. `OutboxSender` delivers it.
 *
 * @example
 * const outbox = new Outbox({ store, clock });
 * const { id } = await outbox.enqueue({ kind: 'post', tenant: 'sandbox', wallId: 3, body: 'Deploy finished' });
 */
export class Outbox {
  constructor(private readonly options: OutboxOptions) {}

  async enqueue(input: unknown, options: EnqueueOptions = {}): Promise<{ id: string }> {
    const entry = parseEntry(input);
    const opts = parseOrThrow(EnqueueOptionsSchema, options, 'options');
    const now = this.options.clock.now();
    const record: OutboxRecord = {
      v: 1,
      entry,
      deadlineAt: now + (opts.deadlineMs ?? this.options.deadlines?.[entry.kind] ?? DEFAULT_DEADLINE_MS),
      onUncertain: opts.onUncertain ?? this.options.onUncertain?.[entry.kind] ?? 'resend',
      coalescible: opts.coalescible ?? true,
      ...(opts.bot === undefined ? {} : { bot: opts.bot }),
    };
    if (opts.id !== undefined && (await this.options.store.kv(OUTBOX_KV).get(doneKey(opts.id))) !== undefined) return { id: opts.id };
    try {
      const queued = tracingOn()
        ? await traceOutboxEnqueue({ ...entry, bot: 'bot' in entry ? entry.bot : undefined }, opts.trace, (trace) => this.persist(record, opts, trace))
        : await this.persist(record, opts, undefined);
      this.options.sender?.wake();
      return { id: queued.id };
    } catch (error) {
      if (opts.id !== undefined && error instanceof IntrabotError && error.code === 'conflict') return { id: opts.id };
      throw error;
    }
  }

  /** The record into the store's outbox, in its target's line (or a held line of its own), with the trace context to continue. */
  private persist(record: OutboxRecord, opts: z.output<typeof EnqueueOptionsSchema>, trace: TraceCarrier | undefined): Promise<{ id: string }> {
    const { entry } = record;
    return this.options.store.outbox.enqueue({
      target: opts.target ?? (opts.held ? heldTargetOf(entry) : targetOf(entry)),
      payload: { ...record, ...(opts.id === undefined ? {} : { keyed: true }), ...(trace ? { trace } : {}) },
      ...(opts.id === undefined ? {} : { id: opts.id }),
      ...(opts.notBeforeMs === undefined ? {} : { notBeforeMs: opts.notBeforeMs }),
    });
  }

  /**
   * Keeps a file given as bytes (a rendered chart, a generated PDF) in the store until the post that
   * carries it is delivered; the answer goes into the entry's media as `blobRef`.
   */
  async stashMedia(data: Buffer | Uint8Array, ttlMs = DEFAULT_DEADLINE_MS + 60 * 60_000): Promise<string> {
    const ref = `blob:${randomUUID()}`;
    await this.options.store.kv(OUTBOX_KV).set(ref, Buffer.from(data).toString('base64'), { ttlMs });
    return ref;
  }
}

/**
 * An entry as the outbox takes it: the entry's own schema (texts trimmed), then the body its platform
 * endpoint takes. Throws `InvalidInputError` naming the field; `testBot`'s recording outbox uses it too.
 */
export function parseEntry(input: unknown): OutboxEntry {
  const entry = parseOrThrow(OutboxEntrySchema, input, 'entry');
  checkBody(entry);
  return entry;
}

/** Checks a body against the endpoint's schema now (the kind's `checkBody`), so a bad message fails its caller instead of a dead letter later. */
function checkBody(entry: OutboxEntry): void {
  kindOf(entry).checkBody?.(entry);
}

/** The line of an entry held on purpose (quiet hours): beside its target's, in order among the held ones. */
export function heldTargetOf(entry: OutboxEntry): string {
  return `${targetOf(entry)}:held`;
}
