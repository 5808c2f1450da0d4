import { z } from 'zod';
import { announcementKind } from './announcement';
import { apiKind } from './api';
import { awardKind } from './award';
import { commentKind } from './comment';
import { dmKind } from './dm';
import { eventKind } from './event';
import { incomingKind } from './incoming';
import { notificationKind } from './notification';
import { postKind } from './post';
import { postEditKind } from './post-edit';
import type { Mergeable, SendOutcome, SendSummary, SendEntryContext } from './send-kind';
import type { ReconcileInput, ReconcileResult } from '../find-created';
import type { SendClient } from '../send-client';

/**
 * Every kind of send the outbox knows, one file each beside this one. The entry schema, the kind
 * names, `ItemKind` and what `testBot` records are derived from this list: a new kind is its file and
 * one line here (docs/architecture.md, "Adding a kind of send").
 */
export const SEND_KINDS = [
  postKind,
  postEditKind,
  commentKind,
  dmKind,
  incomingKind,
  notificationKind,
  announcementKind,
  eventKind,
  awardKind,
  apiKind,
] as const;

type AnySendKind = (typeof SEND_KINDS)[number];
type SchemasOf<T extends readonly AnySendKind[]> = { readonly [I in keyof T]: T[I]['schema'] };

/** An outbox entry of any kind, checked on the way in (`parseEntry`) and again when the sender reads it. */
export const OutboxEntrySchema = z.discriminatedUnion('kind', SEND_KINDS.map((kind) => kind.schema) as unknown as SchemasOf<typeof SEND_KINDS>);
export type OutboxEntry = z.infer<typeof OutboxEntrySchema>;
export type OutboxEntryInput = z.input<typeof OutboxEntrySchema>;
export type OutboxKind = OutboxEntry['kind'];
export const OUTBOX_KINDS: OutboxKind[] = SEND_KINDS.map((kind) => kind.schema.shape.kind.value as OutboxKind);

/** What reconciling can read back and claim: the `createdItem` of the kinds that create readable items. */
export type ItemKind = NonNullable<AnySendKind['createdItem']>;

/** A send as `testBot` records it, from the kinds that have a `record` (without `heldUntil`, which the door adds). */
export type RecordedSend = ReturnType<NonNullable<AnySendKind['record']>>;

/** The kind of send of entries `E`, its functions taking `E` (for any entry: any entry, so call them with the entry looked up). */
export interface SendKindOf<E extends OutboxEntry> {
  readonly schema: z.ZodType<E>;
  orderKey(entry: E): string;
  checkBody?(entry: E): void;
  send(entry: E, ctx: SendEntryContext): Promise<SendOutcome>;
  reconcile?(client: SendClient, entry: E, input: ReconcileInput): Promise<ReconcileResult>;
  readonly createdItem?: ItemKind;
  readonly repeatable?: boolean;
  readonly mergeable?: Mergeable<E>;
  summary(entry: E): SendSummary;
  destination(entry: E): string;
  record?(entry: E): RecordedSend;
}

const BY_NAME = new Map<string, unknown>(SEND_KINDS.map((kind) => [kind.schema.shape.kind.value, kind]));

/**
 * The kind of send `entry` is, typed for it: `kindOf(entry).summary(entry)`.
 *
 * @example kindOf({ kind: 'dm', tenant: 't', userId: 12, botUserId: 9, text: 'hi' }).destination(entry) // 'user 12'
 */
export function kindOf<E extends OutboxEntry>(entry: E): SendKindOf<E> {
  const kind = BY_NAME.get(entry.kind);
  // the types allow no other kind; a value read past them (a newer replica's entry) is a bug to see, not a silent no-op
  if (kind === undefined) throw new Error(`no kind of send "${String(entry.kind)}" (src/outbox/kinds/send-kinds.ts)`);
  return kind as SendKindOf<E>;
}
