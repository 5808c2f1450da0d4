import { z } from 'zod';
import { InvalidInputError } from '../errors';
import { JsonValueSchema } from './json';
import { QueueEntrySchema, type QueueOps } from './queue';
import { TraceCarrierSchema, type TraceCarrier } from '../tracing/trace-carrier';

/** What the receiver hands over for one signed delivery. */
export const AcceptInputSchema = z.object({
  tenant: z.string().min(1),
  bot: z.string().min(1),
  /** The envelope's `id` (spec: Outgoing webhooks, envelope: UUID of the delivery). */
  deliveryId: z.string().min(1),
  /**
   * A second dedupe key, per tenant and bot, for events recovered by other means than the platform's
   * retries (e.g. `comment.created:123`). Optional.
   */
  dedupeKey: z.string().min(1).optional(),
  /**
   * The parsed envelope. Not walked by z.json() here: it came out of JSON.parse, and a deep check on
   * every delivery would cost the ingest path more than the rest of `accept`.
   */
  envelope: z.unknown().refine((value) => value !== undefined, 'expected the parsed JSON envelope'),
  /** The event name without the brand prefix (`post.created`), kept for the router. */
  event: z.string().min(1).optional(),
  /**
   * The envelope's JSON text as it was received, when the caller has it (the receiver does): stored as
   * is instead of serialising `envelope` again on the ingest path. It must be the text `envelope` was
   * parsed from.
   */
  envelopeJson: z.string().min(2).optional(),
  /**
   * The W3C trace context of the accept, when tracing is on: whoever handles the item continues the trace.
   * Made by the runtime, so only its shape is checked here (the ingest path); the item's reader checks it whole.
   */
  trace: z.custom<TraceCarrier>((value) => typeof (value as { traceparent?: unknown } | null)?.traceparent === 'string', 'expected a trace carrier').optional(),
});
export type AcceptInput = z.input<typeof AcceptInputSchema>;

export const InboxItemSchema = z.object({
  tenant: z.string(),
  bot: z.string(),
  deliveryId: z.string(),
  dedupeKey: z.string().nullable(),
  event: z.string().nullable(),
  envelope: JsonValueSchema,
  /** A stored trace context that cannot be read is dropped, never a reason to refuse the delivery. */
  trace: TraceCarrierSchema.optional().catch(undefined),
});
export type InboxItem = z.infer<typeof InboxItemSchema>;

/**
 * The stored form of an accepted delivery (an `InboxItem` as JSON); reuses the received text when given.
 * An envelope JSON cannot hold (a BigInt, a cycle: a caller's mistake) is refused naming the field.
 */
export function inboxItemJson(input: z.output<typeof AcceptInputSchema>): string {
  const { tenant, bot, deliveryId, envelopeJson } = input;
  const rest = { tenant, bot, deliveryId, dedupeKey: input.dedupeKey ?? null, event: input.event ?? null, ...(input.trace ? { trace: input.trace } : {}) };
  if (envelopeJson !== undefined) return `${JSON.stringify(rest).slice(0, -1)},"envelope":${envelopeJson}}`;
  try {
    return JSON.stringify({ ...rest, envelope: input.envelope });
  } catch (error) {
    throw new InvalidInputError('delivery.envelope', `delivery.envelope: cannot be stored as JSON (${error instanceof Error ? error.message : String(error)})`);
  }
}

export const InboxEntrySchema = QueueEntrySchema.extend({ payload: InboxItemSchema });
export type InboxEntry = z.infer<typeof InboxEntrySchema>;

export type AcceptResult =
  | { accepted: true; id: string }
  /** Seen before (by delivery id or by dedupe key) within the dedupe TTL: acknowledge, do not handle. */
  | { accepted: false; duplicateOf: 'delivery' | 'dedupe_key' };

/**
 * spec: Outgoing webhooks, "retries run 1 minute and 10 minutes after the first attempt". Dedupe must
 * outlive the last retry by a wide margin; a day also covers a replay after a long outage.
 */
export const DEFAULT_DEDUPE_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * The webhook inbox: a delivery is accepted (deduplicated and durably written) before the receiver
 * answers 200; the router then takes entries with `reserve` (a lease, so a crashed process's entries come
 * back after the lease) and completes, retries or dead-letters them. Entries are not ordered among
 * themselves: each is its own target, so a slow handler holds up nothing else.
 *
 * @example
 * const r = await store.inbox.accept({ tenant: 'default', bot: 'kudos', deliveryId: env.id, envelope: env });
 * reply.code(200).send(); // durable (or a duplicate) by now
 */
export interface Inbox extends QueueOps<InboxEntry> {
  accept(input: AcceptInput): Promise<AcceptResult>;
}
