import { createBotContext, type EntrySink, type ReplySource } from '../../bots/create-bot-context';
import { AUDIT_TRAIL, type AuditWriter } from '../../bots/audit-log';
import { botLogger } from '../../bots/bot-logger';
import { ALERT_INCIDENTS, type AlertIncidents } from '../../bots/alert-incidents';
import { CLAIM_ONCE, type ClaimOnce } from '../../bots/claim-once';
import type { AlertInputState } from '../../alerts/alert-input-state';
import { incidentEditEntry, IncidentPosts } from '../../alerts/incident-posts';
import type { BotContext } from '../../bots/context';
import type { Clock } from '../../clock';
import { withTimeLimit } from '../../clock/time-limit';
import type { Logger } from '../../log';
import type { Store } from '../../store/store';
import { RunOutbox, type SendListener } from '../../bots/run-sends';
import { traceLogFields, type TraceContext } from '../../tracing/spans';
import { traceHandler } from '../../tracing/trace-sites';
import { tracingOn } from '../../tracing/tracing-switch';
import { tracedApi } from '../../api/create-api-client';
import { wallRefOf, type DeploymentTable, type Deployment } from '../deployments';
import type { ConversationBook } from '../../bots/conversations/pending';
import type { ConversationTimeouts } from './conversation-timeouts';

/** Serves local files to the platform at signed URLs (incoming-webhook media). */
export interface FileServer {
  urlFor(file: { path: string } | { data: Uint8Array; filename: string }): Promise<string>;
}

export interface HandlerRunnerDeps {
  table: DeploymentTable;
  clock: Clock;
  store: Pick<Store, 'kv' | 'claims'>;
  /** Where sends go: the outbox. */
  sink: EntrySink;
  logger: Logger;
  /** A handler's time limit (DESIGN.md: a hang is that bot's failure alone). */
  timeoutMs: number;
  files?: FileServer | undefined;
  /** Where the `auditLog` middleware writes (handed to every run through `ctx.locals`). */
  audit?: AuditWriter | undefined;
  /** Where `ctx.ask` keeps questions, and what times them out. */
  conversations?: ConversationTimeouts | undefined;
  /** The alert inputs' memory: a bot's alert posts, for acknowledging them (handed to every run through `ctx.locals`). */
  alertState?: AlertInputState | undefined;
}

/** How one handler run is made: where `ctx.reply` answers, its log, and `ctx.progress` for jobs. */
export interface RunOptions {
  source?: ReplySource | undefined;
  log?: Logger | undefined;
  progress?: ((text: string) => void) | undefined;
  /** The trace context of the step that runs it (the inbox item's, the job's): the run's span goes under it. */
  trace?: TraceContext | undefined;
  /** Told of each entry the run queues (the delivery history keeps what a handler said). */
  told?: SendListener | undefined;
}

/**
 * Runs a bot's code: builds the handler context for a deployment (sends into the outbox, the bot's store,
 * templates, targets), and runs a handler under its time limit. The one place a context is made, for
 * every trigger of a deployment (`DeployedBot` in deployed-bot.ts).
 */
export class HandlerRunner {
  constructor(private readonly deps: HandlerRunnerDeps) {}

  /** Runs `fn` with a fresh context under the handler time limit; a throw or a timeout rejects (the inbox retries). */
  async run(deployment: Deployment, what: string, fn: (ctx: BotContext<unknown>) => unknown, options: RunOptions = {}): Promise<void> {
    if (!tracingOn()) return this.limited(deployment, what, fn, { ...options, trace: undefined });
    const names = { tenant: deployment.tenant.config.id, bot: deployment.bot.name, what };
    await traceHandler(names, options.trace, (trace) => this.limited(deployment, what, fn, { ...options, trace }));
  }

  /** `fn` with a fresh context, under the handler time limit. */
  private async limited(deployment: Deployment, what: string, fn: (ctx: BotContext<unknown>) => unknown, options: RunOptions): Promise<void> {
    await withTimeLimit(this.deps.clock, this.deps.timeoutMs, `${deployment.bot.name} ${what}`, async (signal) => {
      await fn(this.context(deployment, signal, options));
    });
  }

  /** The logger of one deployment's runs, bound to the bot and tenant (and what `bindings` add). */
  logger(deployment: Deployment, bindings: Record<string, unknown> = {}): Logger {
    return this.deps.logger.child({ bot: deployment.bot.name, tenant: deployment.tenant.config.id, ...bindings });
  }

  /** A deployment's waiting questions (`ctx.ask`), for its answers. */
  conversations(deployment: Deployment): ConversationBook | undefined {
    return this.deps.conversations?.book(deployment);
  }

  /** A handler's context on a deployment; traced, its sends, API calls and log lines go under `options.trace`. */
  context(deployment: Deployment, signal: AbortSignal, options: RunOptions = {}): BotContext<unknown> {
    const { tenant, bot, manifest } = deployment;
    const { files, conversations } = this.deps;
    const { trace } = options;
    const log = options.log ?? this.logger(deployment);
    const steps = Object.keys(bot.definition.conversations);
    return createBotContext({
      tenant: { id: tenant.config.id, timezone: tenant.config.timezone },
      clock: this.deps.clock,
      bot: { name: bot.name, manifest, userId: this.deps.table.provisionedBot(tenant.config.id, bot.name)?.botUserId },
      locals: {
        ...(this.deps.audit ? { [AUDIT_TRAIL.name]: this.deps.audit } : {}),
        [CLAIM_ONCE.name]: ((key, ttlMs) => this.deps.store.claims.claim(`bot:${tenant.config.id}:${bot.name}:${key}`, ttlMs)) satisfies ClaimOnce,
        ...(this.deps.alertState
          ? {
              [ALERT_INCIDENTS.name]: this.incidents(
                this.deps.alertState,
                tenant.config.id,
                bot.name,
                new RunOutbox(this.deps.sink, { locals: {}, bot: bot.name, trace, told: options.told }),
              ),
            }
          : {}),
      },
      config: deployment.config,
      api: tracedApi(tenant.api, trace),
      sink: this.deps.sink,
      namesBot: true,
      told: options.told,
      kv: this.deps.store.kv(`bot:${tenant.config.id}:${bot.name}`),
      templates: deployment.templates,
      log: botLogger(trace === undefined ? log : log.child(traceLogFields(trace))),
      signal,
      wallOf: (name, field) => wallRefOf(deployment, name, field),
      ...(files ? { fileUrl: (file: Parameters<FileServer['urlFor']>[0]) => files.urlFor(file) } : {}),
      source: options.source,
      progress: options.progress,
      trace,
      ...(conversations ? { conversations: { book: conversations.book(deployment), steps, opened: (c) => conversations.arm(c) } } : {}),
    });
  }

  /**
   * A bot's alert posts, for its runs: acknowledging one queues its edit through `sink` (the run's
   * outbox, with locals of its own: an edit answering a person's ack is not held by quiet hours).
   */
  private incidents(state: AlertInputState, tenant: string, bot: string, sink: EntrySink): AlertIncidents {
    return new IncidentPosts(state).forBot(tenant, bot, this.deps.clock, async (edit) => {
      const { entry, options } = incidentEditEntry(tenant, bot, edit);
      await sink.enqueue(entry, options);
    });
  }
}

/** How many entries a job's run queued (its own sends and its alert posts' edits alike). */
export class SendCount implements SendListener {
  count = 0;

  sent(): void {
    this.count += 1;
  }
}
