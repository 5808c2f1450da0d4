import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createBotContext, botStore, type ReplySource } from '../../bots/create-bot-context';
import type { BotContext, BotLogger, BotStore } from '../../bots/context';
import type { DeliveryOutcome } from '../../runtime/ingest/handle-delivery';
import { LoopGuard } from '../../bots/loop-guard';
import { deepMerge, manifestForTenant, type BotManifest } from '../../bots/manifest';
import { loadBot } from '../../bots/registry';
import { AdjustableClock } from '../../clock';
import { IntrabotError, InvalidInputError } from '../../errors';
import { withSandboxEnv } from '../../runtime/config/sandbox-env';
import { withTimeLimit } from '../../clock/time-limit';
import { createTemplateEngine } from '../../templates';
import type { EventName, ReportName } from '../../webhooks/events';
import {
  DEFAULT_USER,
  checkedEventPayload,
  checkedReportPayload,
  commandPayload,
  envelopeOf,
  type CommandOptions,
  type EventPayloadInput,
  type ReportPayloadInput,
} from './deliveries';
import { MemoryKv } from './memory-kv';
import { MemoryClaims } from './memory-claims';
import { CLAIM_ONCE, type ClaimOnce } from '../../bots/claim-once';
import { ConversationBook, type PendingConversation } from '../../bots/conversations/pending';
import { timeOut } from '../../bots/conversations/time-out';
import { DurationSchema } from '../../bots/manifest-parts';
import { parseOrThrow } from '../../validation';
import { AUDIT_TRAIL, type AuditRecord, type AuditWriter } from '../../bots/audit-log';
import { compose, type Middleware } from '../../bots/middleware';
import type { WallRef } from '../../bots/target-entry';
import { RecordingSink, type Sent } from './recording-sink';
import { limitClock } from './limit-clock';
import { createAlertDoor, memoryAlertState, type AlertRequestOptions, type AlertRun } from './alert-door';
import { ALERT_INCIDENTS, type AlertIncidents } from '../../bots/alert-incidents';
import { incidentEditEntry, IncidentPosts } from '../../alerts/incident-posts';
import { deliver, runJob, type TestRunDeps } from './run-handler';
import { createStubApi, UnstubbedCallError, type ApiCall, type ApiStub, type ApiStubs } from './stub-api';

export interface TestBotOptions {
  /** Values over the manifest's `config` (merged key by key), validated with the bot's config schema. */
  config?: Record<string, unknown>;
  /** Where the fake clock stands (ms, ISO 8601 or a Date). It stands still until the test moves it. Default: the real time. */
  now?: number | string | Date;
  /** The tenant the bot runs for. Default: `{ id: 'sandbox', timezone: 'Europe/Berlin' }` (as under `npm start`). */
  tenant?: { id?: string; timezone?: string; locale?: string };
  /** For `${env:...}` in `bot.yaml`. Default: the process's environment over `sandbox.env`, as in sandbox mode. */
  env?: Record<string, string | undefined>;
  /** Answers for `ctx.api` (see `ApiStubs`); a call without one fails the run with `UnstubbedCallError`. */
  api?: ApiStubs;
  /** Wall ids by name, for targets that name a wall. A wall not listed is recorded by its name. */
  walls?: Record<string, number>;
  /** The bot's own user on the platform (its posts are ignored as its own). Default 9000. */
  botUserId?: number;
  /** The shared templates. Default: `templates` in the working directory, as the runtime. */
  templatesDir?: string;
  /**
   * A handler's time limit (a job's too). Default `TEST_HANDLER_TIMEOUT_MS`, 10 s: below a test runner's
   * own timeout (the scaffold's vitest waits 20 s), so a hung handler fails with intrabot's time-limit error
   * naming the bot and the handler rather than the runner's generic one. The runtime's is 30 s.
   */
  handlerTimeoutMs?: number;
  /** Runtime-wide middleware, as `buildRuntime({ middleware })` runs it around the bot's own `use`. */
  middleware?: readonly Middleware[];
}

/** `testBot`'s default handler time limit: below the scaffold's 20 s test timeout. */
export const TEST_HANDLER_TIMEOUT_MS = 10_000;

/** What `bot.alert(...)` did: the route's 202 (`accepted` alerts, `queued` message parts), what was sent, the firing posts. */
export interface AlertResult extends Omit<AlertRun, 'outcome'> {
  sent: Sent[];
}

export interface LogLine {
  level: 'debug' | 'info' | 'warn' | 'error';
  message: string;
  fields?: Record<string, unknown>;
}

/** A bot loaded for in-process tests: each door runs one handler and answers what it sent. */
export interface TestBot<Config = Record<string, unknown>> {
  readonly name: string;
  /** The manifest as this tenant sees it. */
  readonly manifest: BotManifest;
  /** `ctx.config`: the manifest's config with `options.config` over it, parsed by the bot's schema. */
  readonly config: Config;
  /** The fake clock: `clock.set(ms)`, `clock.advance(ms)`; `ctx.now()` and `ctx.today()` read it. */
  readonly clock: AdjustableClock;
  /** `ctx.store`, kept across runs, with TTLs on the fake clock. */
  readonly store: BotStore;
  /** Every `ctx.api` call so far, in order. */
  readonly calls: readonly ApiCall[];
  /** Everything sent so far, in order (a run that threw included). */
  readonly sent: readonly Sent[];
  readonly logs: readonly LogLine[];
  /** What the `auditLog` middleware recorded, in order (the runtime keeps it in the store). */
  readonly audit: readonly AuditRecord[];
  /** What the last run did: handled (and by what), or ignored (and why: loop prevention, not a command...). */
  readonly outcome: DeliveryOutcome | undefined;
  /** An event as the platform delivers it; the payload is checked against the event's schema first. */
  event<E extends EventName>(name: E, payload: EventPayloadInput<E>, options?: { recovered?: boolean }): Promise<Sent[]>;
  /** An employee writes `text` (`/kudos Ada for the talk`, `@Bot Name help`) in a post, or a comment with `commentOn`. */
  command(text: string, options?: CommandOptions): Promise<Sent[]>;
  /** A job for the cron slot `slot` (default: the clock's now). */
  job(name: string, options?: { slot?: number | string | Date }): Promise<Sent[]>;
  /**
   * A monitoring tool's notification to one of the bot's alert inputs (`bot.yaml` `alerts:`, by input
   * name), taken as `POST /alerts/:bot/:input` takes it: read by the input's format adapter, deduplicated
   * against what this bot was sent before, routed, rendered and split by the runtime's alert dispatch.
   * `body` is the tool's JSON (an object, or its text); `headers.authorization`, when given, is checked
   * against the input's `auth`. Answers what the route's 202 says (`accepted`, `queued`), what was sent,
   * and the firing posts with the ids they were given (a resolution comments under its post).
   *
   * @example
   * const { accepted, sent } = await bot.alert('alertmanager', alertmanagerFiring);
   * expect(sent).toEqual([expect.objectContaining({ kind: 'post', wall: 'Operations' })]);
   */
  alert(input: string, body: unknown, options?: AlertRequestOptions): Promise<AlertResult>;
  /** An outgoing report delivery; the payload is checked against the report's schema first. */
  report<R extends ReportName>(name: R, payload: ReportPayloadInput<R>): Promise<Sent[]>;
  /**
   * A comment under a post, as the platform delivers it (`comment.created`): the way to answer a
   * question the bot asked with `ctx.ask` (`bot.comment('yes', { on: 5001 })`).
   */
  comment(text: string, options: { on: number } & Omit<CommandOptions, 'commentOn'>): Promise<Sent[]>;
  /** The questions the bot waits on (`ctx.ask`), oldest first. */
  waiting(): Promise<PendingConversation[]>;
  /**
   * Moves the clock on (`'10m'`, or ms) and runs the timeout of every question that came due, in order
   * of their deadlines, as the runtime would: what they sent.
   */
  elapse(duration: string | number): Promise<Sent[]>;
  /** Adds or replaces an answer of `ctx.api` (same keys as `options.api`). */
  stub(key: string, answer: ApiStub): void;
}

/**
 * A bot's handlers, commands, jobs and reports run in this process, against a context that records
 * what they send instead of sending it: the fast door for unit tests, next to `startPair` (real HTTP)
 * for end-to-end ones. The bot is loaded as the runtime loads it (`bot.yaml` validated, `${env:...}`
 * resolved, the module checked against the manifest), its config parsed by its own schema, its
 * templates rendered by the runtime's engine (its `templates/`, then the shared ones), and deliveries
 * routed by the runtime's dispatch (chat-ops, `help`, permissions, loop prevention, time limits).
 * `ctx.api` is answered by stubs; time is a clock that stands still until the test moves it.
 *
 * `botDir` is the bot's folder: a path (relative to the working directory) or a file URL, such as
 * `new URL('.', import.meta.url)` in a test beside the bot.
 *
 * @example
 * const bot = await testBot('bots/kudos', { now: '2026-06-10T09:00:00+02:00', api: { 'users.list': [ada] } });
 * const sent = await bot.command('/kudos Ada Lovelace for the keynote', { user: { id: 7, name: 'Grace Hopper' } });
 * expect(sent).toEqual([{ kind: 'comment', postId: 5001, text: expect.stringContaining('Ada Lovelace received') }]);
 */
export async function testBot<Config = Record<string, unknown>>(botDir: string | URL, options: TestBotOptions = {}): Promise<TestBot<Config>> {
  const dir = botDir instanceof URL ? fileURLToPath(botDir) : resolve(botDir);
  const env = options.env ?? withSandboxEnv(process.env, process.cwd());
  const loaded = await loadBot(dir, env);
  const tenant = { id: options.tenant?.id ?? 'sandbox', timezone: options.tenant?.timezone ?? 'Europe/Berlin', locale: options.tenant?.locale ?? 'en' };
  const manifest = manifestForTenant(loaded.manifest, tenant.id);
  const config = loaded.definition.parseConfig(deepMerge(manifest.config, options.config ?? {})) as Config;
  const clock = new AdjustableClock({ start: instantOf(options.now ?? Date.now(), 'now'), frozen: true });
  const stubs = createStubApi(options.api);
  const sink = new RecordingSink();
  const kv = new MemoryKv(clock);
  const loopGuard = new LoopGuard(new MemoryKv(clock));
  const claims = new MemoryClaims(clock);
  const conversations = new ConversationBook(new MemoryKv(clock), claims, clock);
  // the alert door's memory, which the bot's runs read their alert posts from (acknowledging them)
  const alertState = memoryAlertState(clock);
  const incidents = new IncidentPosts(alertState).forBot(tenant.id, loaded.name, clock, async (edit) => {
    const { entry, options } = incidentEditEntry(tenant.id, loaded.name, edit);
    await sink.enqueue(entry, options);
  }) satisfies AlertIncidents;
  const steps = Object.keys(loaded.definition.conversations);
  const botUserId = options.botUserId ?? 9000;
  await loopGuard.noteBotUsers(tenant.id, { [loaded.name]: botUserId }, []);
  const templates = createTemplateEngine({
    dirs: [join(dir, 'templates'), options.templatesDir ?? resolve('templates')],
    timezone: tenant.timezone,
    locale: 'en-GB',
  });
  const logs: LogLine[] = [];
  const audit: AuditRecord[] = [];
  const auditTrail: AuditWriter = { record: async (entry) => void audit.push(entry) };
  const log = (level: LogLine['level']) => (message: string, fields?: Record<string, unknown>) =>
    void logs.push({ level, message, ...(fields ? { fields } : {}) });
  const logger: BotLogger = { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
  const timeoutMs = options.handlerTimeoutMs ?? TEST_HANDLER_TIMEOUT_MS;
  const limits = limitClock(clock);
  const wallOf = async (name: string): Promise<WallRef> => (options.walls?.[name] !== undefined ? { wallId: options.walls[name] } : { wallName: name });
  let nextId = 5001;
  // the runtime-wide middleware around the bot's own, composed once as the runtime does for a deployment
  const chain = compose([...(options.middleware ?? []), ...loaded.definition.use]);
  let outcome: DeliveryOutcome | undefined;

  const context = (source: ReplySource | undefined, signal: AbortSignal): BotContext<unknown> =>
    createBotContext({
      tenant,
      clock,
      bot: { name: loaded.name, manifest, userId: botUserId },
      locals: {
        [AUDIT_TRAIL.name]: auditTrail,
        [CLAIM_ONCE.name]: ((key, ttlMs) => claims.claim(key, ttlMs)) satisfies ClaimOnce,
        [ALERT_INCIDENTS.name]: incidents,
      },
      config,
      api: stubs.api,
      sink,
      kv,
      templates,
      log: logger,
      signal,
      wallOf,
      fileUrl: async (file) => ('path' in file ? pathToFileURL(resolve(file.path)).href : `https://testbot.invalid/files/${encodeURIComponent(file.filename)}`),
      source,
      conversations: { book: conversations, steps },
    });

  const dispatchDeps = (user: CommandOptions['user']): TestRunDeps => ({
    tenant: tenant.id,
    botName: loaded.name,
    manifest,
    definition: loaded.definition,
    limits,
    loopGuard,
    context,
    // the runtime reads the full user for permissions; a test that gives groups or is_manager has said who it is
    fetchUser: async (id: number) =>
      user && user.id === id && (user.groups !== undefined || user.is_manager !== undefined) ? user : ((await stubs.api.users.get(id)) as never),
    timeoutMs,
    chain,
    conversations,
  });

  /** One run: what it sent, or its error; a call no stub answered fails it even when the handler caught the error. */
  const recorded = async (run: () => Promise<DeliveryOutcome>): Promise<Sent[]> => {
    const before = sink.sent.length;
    stubs.takeUnstubbed();
    outcome = undefined;
    try {
      outcome = await run();
    } finally {
      const missing = stubs.takeUnstubbed();
      if (missing.length > 0) throw new UnstubbedCallError(missing[0]!);
    }
    return sink.sent.slice(before);
  };

  const alertDoor = createAlertDoor({
    state: alertState,
    tenant: tenant.id,
    bot: { name: loaded.name, manifest, userId: botUserId },
    clock,
    templates,
    sink,
    wallOf,
    logger: { warn: (fields, message) => logger.warn(message, fields), error: (fields, message) => logger.error(message, fields) },
    chain,
    run: (what, fn) =>
      withTimeLimit(limits, timeoutMs, `${loaded.name} ${what}`, async (signal) => {
        await fn(context(undefined, signal));
      }),
  });

  const subscribed = (event: EventName): void => {
    if (!manifest.events.some((s) => s.event === event))
      throw new InvalidInputError('event', `event: bot ${loaded.name} does not subscribe to ${event} (bot.yaml events), so the runtime never delivers it`);
  };

  return {
    name: loaded.name,
    manifest,
    config,
    clock,
    store: botStore(kv),
    calls: stubs.calls,
    sent: sink.sent,
    logs,
    audit,
    get outcome() {
      return outcome;
    },
    event: (name, payload, eventOptions = {}) =>
      recorded(async () => {
        subscribed(name);
        const checked = checkedEventPayload(name, payload);
        return deliver(dispatchDeps(undefined), name, envelopeOf(name, checked, clock.now(), tenant.id, eventOptions.recovered));
      }),
    command: (text, commandOptions = {}) =>
      recorded(async () => {
        const { event, payload } = commandPayload(text, commandOptions, commandOptions.id ?? nextId++, clock.now());
        subscribed(event);
        return deliver(dispatchDeps(commandOptions.user ?? DEFAULT_USER), event, envelopeOf(event, payload, clock.now(), tenant.id));
      }),
    job: (name, jobOptions = {}) =>
      recorded(async () => {
        const slot = jobOptions.slot === undefined ? clock.now() : instantOf(jobOptions.slot, 'slot');
        const ran = await runJob({ definition: loaded.definition, botName: loaded.name, clock: limits, timeoutMs, chain }, name, slot, (signal) =>
          context(undefined, signal),
        );
        if (ran.status === 'ignored') throw new IntrabotError('not_found', ran.reason);
        return ran;
      }),
    alert: async (input, body, alertOptions) => {
      let run: AlertRun | undefined;
      const sent = await recorded(async () => {
        run = await alertDoor(input, body, alertOptions);
        return run.outcome;
      });
      return { accepted: run!.accepted, queued: run!.queued, sent, posts: run!.posts };
    },
    report: (name, payload) =>
      recorded(async () => {
        if (!manifest.reports.some((r) => r.report === name))
          throw new InvalidInputError('report', `report: bot ${loaded.name} does not receive ${name} (bot.yaml reports)`);
        const checked = checkedReportPayload(name, payload);
        return deliver(dispatchDeps(undefined), name, envelopeOf(name, checked, clock.now(), tenant.id));
      }),
    comment: (text, commentOptions) =>
      recorded(async () => {
        const { on, ...rest } = commentOptions;
        const { event, payload } = commandPayload(text, { ...rest, commentOn: on }, commentOptions.id ?? nextId++, clock.now());
        subscribed(event);
        return deliver(dispatchDeps(commentOptions.user ?? DEFAULT_USER), event, envelopeOf(event, payload, clock.now(), tenant.id));
      }),
    waiting: async () => (await conversations.all()).sort((a, b) => a.askedAt - b.askedAt),
    elapse: (duration) =>
      recorded(async () => {
        const ms = typeof duration === 'number' ? duration : parseOrThrow(DurationSchema, duration, 'duration');
        clock.advance(ms);
        const due = (await conversations.all()).filter((c) => c.deadline <= clock.now()).sort((a, b) => a.deadline - b.deadline);
        for (const conversation of due) {
          await timeOut(conversations, conversation, loaded.definition, chain, {
            run: (what, fn, source) =>
              withTimeLimit(limits, timeoutMs, `${loaded.name} ${what}`, async (signal) => {
                await fn(context(source, signal));
              }),
          });
        }
        return due.length
          ? { status: 'handled', what: due.map((c) => `conversation ${c.step}: timeout`).join(', ') }
          : { status: 'ignored', reason: 'no question came due' };
      }),
    stub: (key, answer) => stubs.stub(key, answer),
  };
}

function instantOf(value: number | string | Date, field: string): number {
  const ms = typeof value === 'number' ? value : typeof value === 'string' ? Date.parse(value) : value.getTime();
  if (!Number.isFinite(ms)) throw new InvalidInputError(field, `${field}: not an instant: ${String(value)}`);
  return ms;
}
