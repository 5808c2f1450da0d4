import type { z } from 'zod';
import type { KvSpace } from '../../store/kv';
import type { JsonValue } from '../../store/json';
import type { Secrets } from '../../store/secrets';
import type { CreatedItem } from '../created-items';
import type { ReconcileInput, ReconcileResult } from '../find-created';
import type { SendClient } from '../send-client';

/**
 * A kind of send: everything the outbox, the CLI, the console and `testBot` know about one `kind` of
 * outbox entry, in one file under `src/outbox/kinds/` (listed in `SEND_KINDS`, `send-kinds.ts`). `S` is
 * the entry's schema, `C` the `createdItem` (it makes `ItemKind`), `R` what `record` answers (it makes
 * `Sent`). The kind's value is declared with this type written out: the registry derives types from
 * it, and a declared type is what lets those derived types name the kinds. See docs/architecture.md,
 * "Adding a kind of send".
 *
 * @example
 * export const notificationKind: SendKind<typeof NotificationEntrySchema, never, SentNotification> = {
 *   schema: NotificationEntrySchema,
 *   sample: { kind: 'notification', tenant: 'sandbox', notification: { title: 'Maintenance', body: 'Tonight' } },
 *   orderKey: (entry) => `${entry.tenant}:notifications`,
 *   send: async (entry, ctx) => {
 *     await callOnce(ctx.client, endpoints['notifications.send'], { signal: ctx.signal, body: entry.notification });
 *     return {};
 *   },
 *   summary: (entry) => titledSummary(entry.notification, ['text', 'body', 'message']),
 *   destination: () => 'notification',
 *   record: (entry) => ({ kind: 'notification', notification: entry.notification }),
 * };
 */
export interface SendKind<S extends EntrySchema = EntrySchema, C extends string = never, R = never> {
  /** The entry as it is queued: a strict object whose `kind` literal names the kind. */
  readonly schema: S;
  /** An entry of this kind (documentation, and the registry's tests queue it). */
  readonly sample: z.input<S>;
  /** The queue target: entries with one order key keep their order and go one at a time. */
  orderKey(entry: z.infer<S>): string;
  /** Checks what the entry sends against its endpoint's body now, so a bad message fails its caller instead of a dead letter later. */
  checkBody?(entry: z.infer<S>): void;
  /** One attempt at sending the entry; throws the client's error class on failure. */
  send(entry: z.infer<S>, ctx: SendEntryContext): Promise<SendOutcome>;
  /** Looks for the effect of an earlier attempt on the platform. Absent: what this kind sends cannot be read back. */
  reconcile?(client: SendClient, entry: z.infer<S>, input: ReconcileInput): Promise<ReconcileResult>;
  /** The kind of item a send creates and a reconcile claims (`CreatedItems`), for kinds that create readable items. */
  readonly createdItem?: C;
  /** Sending the entry again is harmless whatever happened before (an award: an identical row returns the existing one). */
  readonly repeatable?: boolean;
  /** How a storm of these entries is merged into digests (`coalesce.ts`); absent: never merged. */
  readonly mergeable?: Mergeable<z.infer<S>>;
  /** What the entry says, for people: the CLI and the console format it (`entry-text.ts`). */
  summary(entry: z.infer<S>): SendSummary;
  /** Where the entry goes, in a few words (`wall 3`, `user 12`): the audit log and the delivery history. */
  destination(entry: z.infer<S>): string;
  /** The entry as `testBot` records it (`Sent`). Absent: `testBot` refuses a handler that queues one. */
  record?(entry: z.infer<S>): R;
  /**
   * The method of a bot's `ctx` that queues an entry of this kind from one argument (`ctx.notify(...)`):
   * the handler context adds it for every kind that has one; its declaration, with its TSDoc, is in
   * `BotContext` (src/bots/context.ts). Absent: the kind has no method of its own, or a richer one
   * written in the context (posts, replies, direct messages).
   */
  readonly contextMethod?: ContextMethod<z.input<S>>;
}

/** A `ctx` method of a kind: its name, and the entry one call queues. */
export interface ContextMethod<E> {
  readonly name: string;
  entry(tenant: string, input: never): E;
}

/** What a kind's schema must be: `z.strictObject({ kind: z.literal(...), tenant, ... })`, refinements allowed. */
export type EntrySchema = z.ZodObject<{ kind: z.ZodLiteral<string>; tenant: z.ZodString } & z.core.$ZodShape, z.core.$strict>;

/** How entries of a kind that carries one text become digests. */
export interface Mergeable<E> {
  /** The text coalescing may merge with its neighbours, or undefined when this entry cannot be merged (it carries media). */
  text(entry: E): string | undefined;
  /** The same entry with `text` as its message (for a digest). */
  withText(entry: E, text: string): E;
  /** Whether two entries of this kind (same tenant) go the same way, as the same sender, and so can share a digest. */
  sameChannel(a: E, b: E): boolean;
}

/**
 * What an entry says, in parts each surface formats: a text (a post's body, a message's text, what an
 * entry without text does), and for a titled kind (notification, announcement, event) its title field
 * as the entry holds it. The console shows "title: text", the CLI's one line the title alone.
 */
export type SendSummary = { text: string } | { title: JsonValue | undefined; text: string };

/** The summary of a titled record: its `title`, and the first of `textFields` that holds text. */
export function titledSummary(record: Record<string, JsonValue>, textFields: readonly string[]): SendSummary {
  const text = textFields.map((field) => record[field]).find((value): value is string => typeof value === 'string') ?? '';
  return { title: record.title, text };
}

export interface SendEntryContext {
  client: SendClient;
  secrets: Pick<Secrets, 'get'>;
  kv: KvSpace;
  /** The queue entry (media ids are remembered under it). */
  entryId: string;
  /** How long notes about the entry are kept. */
  ttlMs: number;
  signal: AbortSignal;
}

/** What a delivered entry created: claimed for its attempt (`CreatedItems`), and for the loop guard. */
export interface SendOutcome {
  /** `tokenUser`: the author, when the content is the token's own (a comment, a post without `bot_user_id`). */
  created?: CreatedItem & { tokenUser?: TokenUser };
  /** Text posted through an incoming webhook (it comes back as a post without a known id). */
  sentText?: string;
}

/** The user content created with the token is attributed to, and its `type` (`system`, or `default` for an employee). */
export interface TokenUser {
  id: number;
  type?: string | undefined;
}

/** What a create answers, as far as the outbox reads it. */
export type Created = { id: number; author?: { id?: unknown; type?: unknown } | null };

/** Content created through the API is attributed to the token's user (spec: Authentication, 4): learned from what it creates. */
export function tokenUserOf(created: Created): { tokenUser?: TokenUser } {
  const { id, type } = created.author ?? {};
  return typeof id === 'number' ? { tokenUser: { id, type: typeof type === 'string' ? type : undefined } } : {};
}
