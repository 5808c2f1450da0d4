import { z } from 'zod';
import type { Clock } from '../clock';
import { alertEntryId } from './alert-entry-id';
import type { EnqueueOptions } from '../outbox/outbox';
import type { PostEditEntry } from '../outbox/kinds/post-edit';
import type { JsonValue } from '../store/json';
import { hashOf, PostRecordSchema, REF_TTL_MS, type AlertInputState, type PostRecord } from './alert-input-state';

/** Who acknowledged a firing post, and when (ms). */
export const AlertAckSchema = z.object({ by: z.object({ id: z.number(), name: z.string() }), at: z.number() });
export type AlertAck = z.infer<typeof AlertAckSchema>;

/** A firing post's incident as the bots see it (`alertIncident` in intrabot/helpers). */
export interface AlertIncidentRecord {
  postId: number;
  /** The alert input that posted it. */
  input: string;
  /** How many alerts it reported, and how many of them resolved since. */
  alerts: number;
  resolved: number;
  /** `resolved` once every alert it reported has. */
  state: 'firing' | 'resolved';
  acknowledged?: AlertAck;
  /** The labels of its group (Alertmanager's group labels, else those its alerts share): matchers that silence it. */
  labels?: Record<string, string>;
}

/** A firing post's new body, for the outbox to put in place (`post-edit`). */
export interface IncidentPostEdit {
  wallId: number;
  postId: number;
  body: string;
  /** Stable for one state of the post: a retried step queues the same edit once. */
  key: string;
}

/** Queues an edit of a firing post. */
export type QueueIncidentEdit = (edit: IncidentPostEdit) => Promise<void>;

/**
 * The firing posts of the alert inputs, kept current: each post's record (its alerts, which resolved)
 * is written by the sender and the dispatch (`AlertInputState`), who acknowledged it is kept here, and
 * every change edits the post in place: its text as it was posted, then one status line per fact
 * (`incidentPostBody`). The dispatch changes a post with its group's lock held, and an acknowledgement
 * takes the same lock, so the edits of one post are queued in the order of its changes and the last
 * one queued shows them all.
 */
export class IncidentPosts {
  constructor(private readonly state: AlertInputState) {}

  /**
   * Resolutions of alerts a firing post reported were queued (as comments under it): the record learns
   * them, and the post's new body is answered when it can be edited. Called with the group's lock held.
   */
  async resolved(tenant: string, bot: string, postId: number, refKeys: readonly string[]): Promise<IncidentPostEdit | undefined> {
    const record = await this.record(tenant, bot, postId);
    if (!record) return undefined;
    const resolved = [...new Set([...record.resolved, ...refKeys.filter((ref) => record.refs.includes(ref))])];
    if (resolved.length === record.resolved.length) return undefined;
    const next = { ...record, resolved };
    await this.state.kv(tenant, bot).set(`post:${postId}`, next as unknown as JsonValue, { ttlMs: REF_TTL_MS });
    return editOf(postId, next, await this.ack(tenant, bot, postId));
  }

  /** The incident a firing post reports; undefined for any other post (or one older than 30 days). */
  async incident(tenant: string, bot: string, postId: number): Promise<AlertIncidentRecord | undefined> {
    const record = await this.record(tenant, bot, postId);
    return record && this.withLabels(tenant, bot, record, incidentOf(postId, record, await this.ack(tenant, bot, postId)));
  }

  /**
   * Counts every alert of a firing post resolved, because the bot learnt it another way than from the
   * source (Alertmanager sends no resolution of a silenced alert: the alerts bot asks it), under its
   * group's lock, and edits the post (`queue`). `changed` false when it had resolved already. The
   * group's dedupe state is left alone: a new firing of these alerts has a new start, and is posted.
   * Undefined when the post reports no incident.
   */
  async resolveAll(
    tenant: string,
    bot: string,
    postId: number,
    queue: QueueIncidentEdit | undefined,
  ): Promise<{ incident: AlertIncidentRecord; changed: boolean } | undefined> {
    return this.onPost(tenant, bot, postId, async (record) => {
      const ack = await this.ack(tenant, bot, postId);
      const before = incidentOf(postId, record, ack);
      if (before.state === 'resolved') return { incident: before, changed: false };
      const next = { ...record, resolved: [...record.refs] };
      await this.state.kv(tenant, bot).set(`post:${postId}`, next as unknown as JsonValue, { ttlMs: REF_TTL_MS });
      const edit = editOf(postId, next, ack);
      if (edit && queue) await queue(edit);
      return { incident: incidentOf(postId, next, ack), changed: true };
    });
  }

  /**
   * Records who acknowledged a firing post, under its group's lock: the first acknowledgement is kept
   * (a claim in the store, across replicas), later ones and those after the resolution change nothing
   * (`first` false). It changes no alert state, so it reopens nothing. The first edits the post
   * (`queue`). Undefined when the post reports no incident.
   */
  async acknowledge(
    tenant: string,
    bot: string,
    postId: number,
    ack: AlertAck,
    queue: QueueIncidentEdit | undefined,
  ): Promise<{ incident: AlertIncidentRecord; first: boolean } | undefined> {
    return this.onPost(tenant, bot, postId, async (record) => {
      const earlier = await this.ack(tenant, bot, postId);
      const incident = incidentOf(postId, record, earlier);
      if (earlier || incident.state === 'resolved') return { incident, first: false };
      if (!(await this.state.claimOnce(`alerts-ack:${hashOf(`${tenant}\u0000${bot}\u0000${postId}`)}`, REF_TTL_MS))) {
        return { incident: incidentOf(postId, record, await this.ack(tenant, bot, postId)), first: false };
      }
      await this.state.kv(tenant, bot).set(`ack:${postId}`, ack as unknown as JsonValue, { ttlMs: REF_TTL_MS });
      const edit = editOf(postId, record, ack);
      if (edit && queue) await queue(edit);
      return { incident: { ...incident, acknowledged: ack }, first: true };
    });
  }

  /** One bot's firing posts on a tenant, as its runs see them (`ctx.locals`: `alertIncident`, `acknowledgeAlert`). */
  forBot(tenant: string, bot: string, clock: Pick<Clock, 'now'>, queue: QueueIncidentEdit | undefined) {
    return {
      find: (postId: number) => this.incident(tenant, bot, postId),
      acknowledge: (postId: number, by: AlertAck['by']) => this.acknowledge(tenant, bot, postId, { by, at: clock.now() }, queue),
      resolve: (postId: number) => this.resolveAll(tenant, bot, postId, queue),
    };
  }

  private async record(tenant: string, bot: string, postId: number): Promise<PostRecord | undefined> {
    const parsed = PostRecordSchema.safeParse(await this.state.kv(tenant, bot).get(`post:${postId}`));
    return parsed.success ? parsed.data : undefined;
  }

  /**
   * `work` on a firing post's record, read again under its group's lock (the one its dispatch holds),
   * and its answer's incident given the group's labels; undefined when the post reports no incident.
   */
  private async onPost<R extends { incident: AlertIncidentRecord }>(
    tenant: string,
    bot: string,
    postId: number,
    work: (record: PostRecord) => Promise<R>,
  ): Promise<R | undefined> {
    const found = await this.record(tenant, bot, postId);
    if (!found) return undefined;
    const run = async (): Promise<R> => {
      const record = (await this.record(tenant, bot, postId)) ?? found;
      const result = await work(record);
      return { ...result, incident: await this.withLabels(tenant, bot, record, result.incident) };
    };
    return found.group === undefined ? run() : this.state.exclusive(tenant, bot, found.group, run);
  }

  /** The incident with its group's labels, read from the group's state (kept by the dispatch). */
  private async withLabels(tenant: string, bot: string, record: PostRecord, incident: AlertIncidentRecord): Promise<AlertIncidentRecord> {
    if (record.group === undefined) return incident;
    const { labels } = await this.state.load(tenant, bot, record.group);
    return labels ? { ...incident, labels } : incident;
  }

  private async ack(tenant: string, bot: string, postId: number): Promise<AlertAck | undefined> {
    const parsed = AlertAckSchema.safeParse(await this.state.kv(tenant, bot).get(`ack:${postId}`));
    return parsed.success ? parsed.data : undefined;
  }
}

function incidentOf(postId: number, record: PostRecord, ack: AlertAck | undefined): AlertIncidentRecord {
  const { refs, resolved } = record;
  return {
    postId,
    // a ref is `<input>:<target>:<fingerprint>:<started>`; input names hold no colon
    input: refs[0]?.split(':')[0] ?? '',
    alerts: refs.length,
    resolved: resolved.length,
    state: resolved.length >= refs.length ? 'resolved' : 'firing',
    ...(ack ? { acknowledged: ack } : {}),
  };
}

function editOf(postId: number, record: PostRecord, ack: AlertAck | undefined): IncidentPostEdit | undefined {
  // a post recorded before its wall and text were kept cannot be rebuilt: left as it is
  if (record.wallId === undefined || record.text === undefined) return undefined;
  const body = incidentPostBody(record.text, incidentOf(postId, record, ack));
  return { wallId: record.wallId, postId, body, key: `incident-edit:${postId}:${hashOf(body)}` };
}

/**
 * A firing post's body for its incident's state: the text it was posted with, then who acknowledged it
 * and how far it has resolved, one line each.
 *
 * @example
 * incidentPostBody('🔥 DiskFull on db-1', { alerts: 2, resolved: 1, state: 'firing', acknowledged: { by: { id: 7, name: 'Ada' }, at: 0 }, ... })
 * // => '🔥 DiskFull on db-1\n\n✋ Acknowledged by Ada\n🔥 1 of 2 alerts still firing'
 */
export function incidentPostBody(text: string, incident: Pick<AlertIncidentRecord, 'alerts' | 'resolved' | 'state' | 'acknowledged'>): string {
  const lines: string[] = [];
  if (incident.acknowledged) lines.push(`✋ Acknowledged by ${incident.acknowledged.by.name}`);
  if (incident.state === 'resolved') lines.push(incident.alerts === 1 ? '✅ Resolved' : `✅ Resolved: all ${incident.alerts} alerts`);
  else if (incident.resolved > 0) lines.push(`🔥 ${incident.alerts - incident.resolved} of ${incident.alerts} alerts still firing`);
  return lines.length === 0 ? text : `${text}\n\n${lines.join('\n')}`;
}

/**
 * The outbox entry of an edit a bot's run queues (an acknowledgement), as its bot: held while the bot is
 * paused, and under an id made of the edit's key, so a retried run queues it once.
 */
export function incidentEditEntry(tenant: string, bot: string, edit: IncidentPostEdit): { entry: PostEditEntry; options: EnqueueOptions } {
  const id = alertEntryId(tenant, bot, edit.key);
  return { entry: { kind: 'post-edit', tenant, edit: { wallId: edit.wallId, postId: edit.postId, body: edit.body }, bot }, options: { id, bot } };
}
