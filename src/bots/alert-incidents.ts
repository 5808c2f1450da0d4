import { IntrabotError } from '../errors';
import type { BotContext } from './context';
import { defineLocal } from './middleware';

/** Who acknowledged a firing alert post, and when (ms since the epoch). */
export interface AlertAcknowledgement {
  by: { id: number; name: string };
  at: number;
}

/** What a firing post of one of the bot's alert inputs reports. */
export interface AlertIncident {
  postId: number;
  /** The alert input that posted it. */
  input: string;
  /** How many alerts it reported, and how many of them have resolved since. */
  alerts: number;
  resolved: number;
  /** `resolved` once every alert it reported has. */
  state: 'firing' | 'resolved';
  acknowledged?: AlertAcknowledgement;
  /**
   * The labels of its group: Alertmanager's group labels, else the labels its alerts share. As
   * matchers, they silence the group (`silence_on_ack` in the alerts bot).
   */
  labels?: Record<string, string>;
}

/** The bot's alert posts, as the runtime hands them to every run (`ctx.locals`); `testBot` shares its alert door's. */
export interface AlertIncidents {
  find(postId: number): Promise<AlertIncident | undefined>;
  /** The first acknowledgement is kept (across replicas): `first` false when someone was earlier, or it had resolved. */
  acknowledge(postId: number, by: AlertAcknowledgement['by']): Promise<{ incident: AlertIncident; first: boolean } | undefined>;
  /** Counts every alert of the post resolved, editing it: `changed` false when it had resolved already. */
  resolve(postId: number): Promise<{ incident: AlertIncident; changed: boolean } | undefined>;
}

export const ALERT_INCIDENTS = defineLocal<AlertIncidents>('intrabot.alertIncidents');

/**
 * The incident a post on a wall reports, when one of the bot's alert inputs posted it firing (its alerts,
 * how many resolved, who acknowledged it); undefined for any other post, or once it is 30 days old.
 *
 * @example
 * const incident = await alertIncident(ctx, cmd.source.postId);
 * if (incident?.state === 'firing') await ctx.reply(`${incident.alerts - incident.resolved} alerts still firing`);
 */
export async function alertIncident(ctx: BotContext<unknown>, postId: number): Promise<AlertIncident | undefined> {
  return incidentsOf(ctx).find(postId);
}

/**
 * Records that `by` acknowledged the alert post: the first acknowledgement is kept, across replicas, and
 * changes no alert state (an acknowledgement that races a resolution reopens nothing). The first edits
 * the post in place to show who (a `post-edit` send, queued through the run like any send; the post's
 * later edits, as its alerts resolve, keep the line). Answers the incident and whether this was the
 * first; undefined when the post is not one of the bot's alert posts.
 *
 * @example
 * const acked = await acknowledgeAlert(ctx, cmd.source.postId, cmd.user);
 * if (acked?.first) await ctx.reply(`${cmd.user.name} is on it.`);
 */
export async function acknowledgeAlert(
  ctx: BotContext<unknown>,
  postId: number,
  by: AlertAcknowledgement['by'],
): Promise<{ incident: AlertIncident; first: boolean } | undefined> {
  return incidentsOf(ctx).acknowledge(postId, { id: by.id, name: by.name });
}

/**
 * Counts every alert of a firing alert post resolved, when the bot learnt it otherwise than from the
 * source: Alertmanager sends no resolution of a silenced alert, so a bot that silenced them asks it
 * (the alerts bot's `silence_on_ack`). The post is edited to show it (queued like any send); later
 * notifications of the same alerts answer it no more, and a new firing is posted anew. `changed` false
 * when it had resolved already; undefined when the post is not one of the bot's alert posts.
 *
 * @example
 * const resolved = await resolveAlertIncident(ctx, postId);
 * if (resolved?.changed) await ctx.comment(postId, '✅ Resolved while silenced');
 */
export async function resolveAlertIncident(ctx: BotContext<unknown>, postId: number): Promise<{ incident: AlertIncident; changed: boolean } | undefined> {
  return incidentsOf(ctx).resolve(postId);
}

function incidentsOf(ctx: BotContext<unknown>): AlertIncidents {
  const incidents = ALERT_INCIDENTS.get(ctx);
  if (!incidents) throw new IntrabotError('internal', "alert incidents are not in this run's ctx.locals (the runtime and testBot hand them to every run)");
  return incidents;
}
