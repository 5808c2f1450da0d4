import type { AlertGroup } from './alert';
import type { AlertChange } from './dedupe';
import { messageView, type AlertMessageView } from './alert-view';
import { hashOf } from './alert-input-state';
import { splitMessage } from '../templates/split-message';

/** Which default template a message uses. */
export type AlertTemplateKind = 'firing' | 'resolved' | 'digest';

/** One message for one target, rendered and split, with what the sender and the state need. */
export interface PlannedMessage {
  target: string;
  kind: 'firing' | 'resolved';
  changes: AlertChange[];
  /** The post that reported these alerts firing, for a resolution. */
  replyTo?: number;
  /** One dedupe key per part: stable across retries of the same notification. */
  keys: string[];
  parts: string[];
  /** For a firing message: the refs its first part's post id fills. */
  refKeys: string[];
  /** For a resolution answering a post: the refs of the alerts it resolves there. */
  resolves: string[];
}

export interface PlanContext {
  tenant: string;
  bot: string;
  input: string;
  group: AlertGroup;
  /** The target's message count so far (`GroupState`), so a later identical incident gets new keys. */
  seq: number;
  maxLength: number;
  digestOver: number;
  render: (kind: AlertTemplateKind, view: AlertMessageView) => string;
  /** Who is on call for an alert, by the route that sent it; undefined when its route names no team. */
  oncallOf?: (alert: AlertChange['alert']) => string | undefined;
}

/**
 * Where the post that reported an alert firing on a target is remembered. Keyed by the alert's
 * start, so a resolution finds the post of its own incident, not an earlier one.
 */
export function refKeyOf(input: string, target: string, change: AlertChange): string {
  // a resolution answers the post of the firing it ends: sources that report the fix as a run of its own
  // (a CI success after a failure) give it that run's start, so the firing's, as remembered, comes first
  const started =
    (change.kind === 'resolved' ? (change.previous?.startedAt ?? change.alert.startedAt) : (change.alert.startedAt ?? change.previous?.startedAt)) ?? '';
  return `${input}:${target}:${change.alert.fingerprint}:${started}`;
}

/**
 * The messages of one target for the changes of one notification: the new and refired alerts in
 * one message, the resolved ones in one message per post they answer (those without a known post
 * in one more). A message of more than `digestOver` alerts uses the digest template. Long texts
 * are split in numbered parts, never truncated.
 */
export function planTargetMessages(context: PlanContext, target: string, changes: readonly AlertChange[], refs: ReadonlyMap<string, number>): PlannedMessage[] {
  const firing = changes.filter((change) => change.kind !== 'resolved');
  const resolved = changes.filter((change) => change.kind === 'resolved');
  const plans: PlannedMessage[] = [];
  if (firing.length > 0) plans.push(plan(context, target, 'firing', firing, undefined));
  const byPost = new Map<number | undefined, AlertChange[]>();
  for (const change of resolved) {
    const postId = refs.get(refKeyOf(context.input, target, change));
    byPost.set(postId, [...(byPost.get(postId) ?? []), change]);
  }
  for (const [postId, group] of byPost) plans.push(plan(context, target, 'resolved', group, postId));
  return plans;
}

function plan(context: PlanContext, target: string, kind: 'firing' | 'resolved', changes: AlertChange[], replyTo: number | undefined): PlannedMessage {
  const oncall = kind === 'firing' ? [...new Set(changes.map((change) => context.oncallOf?.(change.alert)).filter((name) => name !== undefined))] : [];
  const view = messageView(changes, { bot: context.bot, input: context.input, target, group: context.group, oncall });
  const text = context.render(changes.length > context.digestOver ? 'digest' : kind, view).trim();
  const parts = splitMessage(text, { maxLength: context.maxLength, numbered: true });
  const base = baseKey(context, target, kind, changes, replyTo);
  return {
    target,
    kind,
    changes,
    ...(replyTo !== undefined && { replyTo }),
    keys: parts.map((_, index) => (parts.length === 1 ? base : `${base}:${index + 1}/${parts.length}`)),
    parts,
    refKeys: kind === 'firing' ? changes.map((change) => refKeyOf(context.input, target, change)) : [],
    resolves: kind === 'resolved' && replyTo !== undefined ? changes.map((change) => refKeyOf(context.input, target, change)) : [],
  };
}

/** Made only of what a retry of the same notification reproduces: never of the time of the request. */
function baseKey(context: PlanContext, target: string, kind: string, changes: readonly AlertChange[], replyTo: number | undefined): string {
  const identity = changes
    .map((change) => [change.alert.fingerprint, change.alert.startedAt ?? '', change.previous?.changedAt ?? '', change.previous?.status ?? ''].join('|'))
    .sort()
    .join('\n');
  const digest = hashOf(`${kind}\n${replyTo ?? ''}\n${identity}`);
  return `alerts:${context.tenant}:${context.bot}:${context.input}:${target}:${context.seq}:${digest}`;
}
