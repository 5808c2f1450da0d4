import type { TemplateEngine } from '../templates/template-engine';
import type { ResolvedAlertInput } from './alert-input';
import type { TraceContext } from '../tracing/spans';

/** One message handed to the outbox. `dedupeKey` is the same when a retried notification resends it. */
export interface AlertSendMessage {
  tenant: string;
  bot: string;
  /** The alert input it came through (`bot.yaml` `alerts:`). */
  input: string;
  /** A target name of the bot's manifest. */
  target: string;
  text: string;
  /** The post that reported the alerts firing: answer it (a comment) when the target is a wall. */
  replyTo?: { postId: number };
  dedupeKey: string;
  /**
   * On the first part of a message reporting alerts firing: the refs of those alerts. The outbox entry
   * carries them, and the post it creates is recorded under them (`AlertInputState.recordPost`), for the
   * resolutions.
   */
  refs?: string[];
  /** With `refs`: the group's state key, kept with the post (an acknowledgement takes the group's lock by it). */
  group?: string;
  /** Instead of a new message: the firing post whose body `text` replaces (its incident's state changed). */
  edit?: { wallId: number; postId: number };
  /** The trace context of the alert input's request (tracing on): the entry's spans go under it. */
  trace?: TraceContext | undefined;
}

/**
 * What the alert inputs need from the bots deployed on each tenant, given once as one object: the
 * deployment a request names, resolved once per request. The runtime implements it with its deployments'
 * entries for alerts (`DeployedBots` and `DeployedBot.alertInput` in src/runtime/ingest/deployed-bot.ts);
 * the alerts layer never reaches into the runtime otherwise.
 */
export interface AlertDeployments {
  /** The bot's deployment on a tenant as one of its inputs sees it; undefined when the bot is not deployed there or has no such input. */
  resolve(tenant: string, bot: string, input: string): AlertDeployment | undefined;
}

/** One alert input of one bot on one tenant, resolved once for a request: what its dispatch reads and where it sends. */
export interface AlertDeployment {
  tenant: string;
  /** The input, as the tenant sees the bot. */
  input: ResolvedAlertInput;
  /** The bot's template engine on the tenant: its own `templates/` first, then the shared ones, in the tenant's time zone. */
  readonly templates: TemplateEngine;
  /**
   * Why a target cannot receive messages (its wall is not on the tenant), or undefined. Answered from
   * what provisioning stored, never by asking the platform: the tool's answer must not wait for it.
   */
  targetProblem(target: string): Promise<string | undefined>;
  /**
   * Queues one message part durably, through the bot's middleware; resolves once it is persisted, with
   * the outbox entry's id, or undefined when a middleware did not let it through (did not call `next`).
   */
  send(message: AlertSendMessage): Promise<{ id: string } | undefined>;
}
