import type { Clock } from '../clock';
import type { AlertDeployment } from './alert-deployments';
import type { TemplateEngine } from '../templates/template-engine';
import type { Alert, AlertGroup } from './alert';
import type { ResolvedAlertInput } from './alert-input';
import { DEFAULT_DEDUPE_WINDOW_MS, DEFAULT_DIGEST_OVER } from './alert-input';
import { groupStateKey, type AlertInputState, type GroupState } from './alert-input-state';
import { IncidentPosts } from './incident-posts';
import { planTargetMessages, refKeyOf, type AlertTemplateKind, type PlanContext, type PlannedMessage } from './alert-messages';
import type { AlertMessageView } from './alert-view';
import { dedupeGroup, type AlertChange, type AlertStateMap } from './dedupe';
import { AlertsNotQueuedError, AlertTargetMissingError, type AlertTargetProblem } from './input-errors';
import { onCallTeamOf, routeAlerts } from './routing';
import { onCallAt } from './oncall';
import { TemplateError } from '../templates/template-error';
import type { TraceContext } from '../tracing/spans';

export interface AlertLogger {
  warn(details: Record<string, unknown>, message: string): void;
  error(details: Record<string, unknown>, message: string): void;
}

export interface AlertDispatchDeps {
  clock: Clock;
  /** The inputs' memory, shared with the outbox sender, which records the posts of firing messages in it (`recordPost`). */
  state: AlertInputState;
  logger: AlertLogger;
  /** The trace context of the request being dispatched (tracing on). */
  trace?: TraceContext | undefined;
}

/** One request's dispatch: the deps, and the deployment its input belongs to (resolved once for the request). */
interface Dispatch extends AlertDispatchDeps {
  deployment: AlertDeployment;
}

interface TargetPlan {
  target: string;
  previous: { seq: number; alerts: AlertStateMap };
  next: AlertStateMap;
  messages: PlannedMessage[];
}

/**
 * One notification group through the pipeline: dedupe per target → plan (route, render, split) →
 * queue every part → store the new state. Alerts whose messages were not all queued keep their old
 * state, so the tool's retry posts them; throws `AlertsNotQueuedError` then. A target that cannot
 * exist is skipped (its alerts keep their state too) and, once the others are queued, reported with
 * `AlertTargetMissingError`. Answers the number of messages (parts) queued.
 */
export async function dispatchGroup(dispatchDeps: AlertDispatchDeps, deployment: AlertDeployment, group: AlertGroup): Promise<number> {
  const deps: Dispatch = { ...dispatchDeps, deployment };
  const { tenant, input } = deployment;
  const key = groupStateKey(input.input, group.groupKey);
  return deps.state.exclusive(tenant, input.bot, key, async () => {
    const state = await deps.state.load(tenant, input.bot, key);
    const { plans, problems } = await planGroup(deps, tenant, input, group, state);
    const outcome = await queueAll(deps, tenant, input, plans, key);
    await noteResolutions(deps, tenant, input, plans, outcome.unsent);
    const labels = labelsOf(group);
    await deps.state.save(tenant, input.bot, key, { ...nextState(state, plans, outcome.unsent), ...(labels ? { labels } : {}) }, input.dedupeWindowMs);
    if (outcome.failure !== undefined) throw new AlertsNotQueuedError({ cause: outcome.failure });
    if (problems.length > 0) throw new AlertTargetMissingError(problems, outcome.queued);
    return outcome.queued;
  });
}

async function planGroup(
  deps: Dispatch,
  tenant: string,
  input: ResolvedAlertInput,
  group: AlertGroup,
  state: GroupState,
): Promise<{ plans: TargetPlan[]; problems: AlertTargetProblem[] }> {
  const routing = input.routing.default.length > 0 ? input.routing : { ...input.routing, default: input.targets };
  const routed = routeAlerts(routing, group.alerts);
  const unrouted = group.alerts.filter((alert) => ![...routed.values()].some((alerts) => alerts.includes(alert)));
  if (unrouted.length > 0)
    deps.logger.warn({ bot: input.bot, input: input.input, alerts: unrouted.length }, 'alerts matched no route and the input has no targets');
  const plans: TargetPlan[] = [];
  const problems: AlertTargetProblem[] = [];
  for (const [target, alerts] of routed) {
    const problem = await deps.deployment.targetProblem(target);
    if (problem === undefined) plans.push(await planTarget(deps, tenant, input, group, { target, alerts }, state));
    else problems.push({ target, problem });
  }
  return { plans, problems };
}

/** Dedupe the target's alerts against what it was last sent, and plan the messages of what changed. */
async function planTarget(
  deps: Dispatch,
  tenant: string,
  input: ResolvedAlertInput,
  group: AlertGroup,
  { target, alerts }: { target: string; alerts: Alert[] },
  state: GroupState,
): Promise<TargetPlan> {
  const now = deps.clock.now();
  const engine = deps.deployment.templates;
  const previous = state.targets[target] ?? { seq: 0, alerts: {} };
  const windowMs = input.dedupeWindowMs ?? DEFAULT_DEDUPE_WINDOW_MS;
  // an alert not mentioned within the window is forgotten, so it counts as new when it comes back
  const { changes, next } = dedupeGroup(previous.alerts, { ...group, alerts }, { now, retentionMs: windowMs });
  const refs = await deps.state.refs(
    tenant,
    input.bot,
    changes.filter((c) => c.kind === 'resolved').map((c) => refKeyOf(input.input, target, c)),
  );
  const context: PlanContext = {
    tenant,
    bot: input.bot,
    input: input.input,
    group,
    seq: previous.seq,
    maxLength: input.maxLength,
    digestOver: input.digestOver ?? DEFAULT_DIGEST_OVER,
    render: (kind, view) => renderMessage(engine, input.template, kind, view),
    oncallOf: (alert) => onCallOf(input, alert, now),
  };
  return { target, previous, next, messages: planTargetMessages(context, target, changes, refs) };
}

/** `<template>/<kind>` of the input's own template base when it has one, else `alerts/<kind>`. */
/** Who is on call for an alert now, by the first rule it matches that names a team. */
function onCallOf(input: ResolvedAlertInput, alert: Alert, nowMs: number): string | undefined {
  const team = onCallTeamOf(input.routing, alert);
  const oncall = team === undefined ? undefined : input.oncall?.[team];
  return oncall && onCallAt(oncall, nowMs);
}

function renderMessage(engine: TemplateEngine, base: string | undefined, kind: AlertTemplateKind, view: AlertMessageView): string {
  const candidates = [base && `${base}/${kind}`, base, `alerts/${kind}`].filter((name): name is string => Boolean(name));
  const name = candidates.find((candidate) => engine.has(candidate)) ?? `alerts/${kind}`;
  const text = engine.render(name, view);
  if (text.trim() === '') throw new TemplateError(name, 'rendered an empty message');
  return text;
}

interface QueueOutcome {
  queued: number;
  /** Messages not (wholly) queued, whose alerts keep their previous state. */
  unsent: Set<PlannedMessage>;
  failure?: unknown;
}

/** Sends in order and stops at the first failure: the outbox is likely down, and order matters. */
async function queueAll(deps: Dispatch, tenant: string, input: ResolvedAlertInput, plans: TargetPlan[], group: string): Promise<QueueOutcome> {
  const messages = plans.flatMap((plan) => plan.messages);
  const outcome: QueueOutcome = { queued: 0, unsent: new Set() };
  for (const message of messages) {
    if (outcome.failure !== undefined) {
      outcome.unsent.add(message);
      continue;
    }
    try {
      outcome.queued += await queueMessage(deps, tenant, input, message, group);
    } catch (error) {
      deps.logger.error({ bot: input.bot, input: input.input, target: message.target, err: error }, 'could not queue an alert message');
      outcome.failure = error;
      outcome.unsent.add(message);
    }
  }
  return outcome;
}

async function queueMessage(deps: Dispatch, tenant: string, input: ResolvedAlertInput, message: PlannedMessage, group: string): Promise<number> {
  let queued = 0;
  for (const [index, text] of message.parts.entries()) {
    const dedupeKey = message.keys[index] as string;
    const replyTo = message.replyTo === undefined ? {} : { replyTo: { postId: message.replyTo } };
    const refs = index === 0 && message.refKeys.length > 0 ? { refs: message.refKeys, group } : {};
    const sent = await deps.deployment.send({
      tenant,
      bot: input.bot,
      input: input.input,
      target: message.target,
      text,
      ...replyTo,
      ...refs,
      dedupeKey,
      trace: deps.trace,
    });
    if (sent !== undefined) queued += 1;
  }
  return queued;
}

/**
 * The firing posts whose alerts' resolutions were queued learn it, and are edited to show it (one post
 * per incident, kept current). An edit that cannot be queued is logged: the resolution itself is queued.
 */
async function noteResolutions(deps: Dispatch, tenant: string, input: ResolvedAlertInput, plans: TargetPlan[], unsent: Set<PlannedMessage>): Promise<void> {
  const posts = new IncidentPosts(deps.state);
  for (const message of plans.flatMap((plan) => plan.messages)) {
    if (message.replyTo === undefined || message.resolves.length === 0 || unsent.has(message)) continue;
    const edit = await posts.resolved(tenant, input.bot, message.replyTo, message.resolves);
    if (!edit) continue;
    const { wallId, postId, body, key } = edit;
    try {
      await deps.deployment.send({
        tenant,
        bot: input.bot,
        input: input.input,
        target: message.target,
        text: body,
        edit: { wallId, postId },
        dedupeKey: key,
        trace: deps.trace,
      });
    } catch (error) {
      deps.logger.error({ bot: input.bot, input: input.input, post: postId, err: error }, 'could not queue the edit of an alert post');
    }
  }
}

function nextState(state: GroupState, plans: TargetPlan[], unsent: Set<PlannedMessage>): GroupState {
  const targets = { ...state.targets };
  for (const plan of plans) {
    const alerts = { ...plan.next };
    const failed = plan.messages.filter((message) => unsent.has(message));
    for (const change of failed.flatMap((message) => message.changes)) revert(alerts, plan.previous.alerts, change);
    const advanced = plan.messages.length > 0 && failed.length === 0;
    targets[plan.target] = { seq: plan.previous.seq + (advanced ? 1 : 0), alerts };
  }
  return { targets };
}

/** The labels that name the group: the source's group labels, else those all its alerts share; undefined when none. */
function labelsOf(group: AlertGroup): Record<string, string> | undefined {
  const labels = group.groupLabels && Object.keys(group.groupLabels).length > 0 ? group.groupLabels : group.commonLabels;
  return Object.keys(labels).length > 0 ? labels : undefined;
}

function revert(alerts: AlertStateMap, previous: AlertStateMap, change: AlertChange): void {
  const fingerprint = (change.alert as Alert).fingerprint;
  const before = previous[fingerprint];
  if (before) alerts[fingerprint] = before;
  else delete alerts[fingerprint];
}
