import { IntrabotError } from '../errors';
import type { BotContext } from './context';
import type { BotEvent, CommandInvocation, JobRun, ReportDelivery } from './define-bot';

/**
 * What is about to run, as a middleware sees it: an event handler, a chat-ops command (a refusal for
 * missing permissions included), an automatic answer (`help`, an unknown command, a question asked
 * again after an answer that is not one (`reask`), "only Ada can answer that" (`not-asked`)), a report
 * handler, a job, a conversation step with its answer (`answer`) or after its time ran out (`timeout`),
 * or a message an alert input sends (`alert`). `what` is the name the delivery log and `intrabot deliveries` use (`/deploy`, `on.post.created`,
 * `job digest`).
 */
export type HandlerInput =
  | { kind: 'event'; what: string; event: BotEvent }
  | { kind: 'command'; what: string; command: CommandInvocation }
  | { kind: 'help' | 'unknown' | 'reask' | 'not-asked'; what: string; text: string }
  | { kind: 'report'; what: string; report: ReportDelivery }
  | { kind: 'job'; what: string; job: JobRun }
  | { kind: 'answer'; what: string; step: string; answer: unknown; state: unknown; user: { id: number; name: string }; postId: number }
  | { kind: 'timeout'; what: string; step: string; state: unknown; user: { id: number; name?: string | undefined }; postId: number }
  | { kind: 'alert'; what: string; alert: AlertSend };

/**
 * One message an alert input sends (an alert input's notification, rendered): the input it came
 * through, the manifest target it goes to, its text, and the post it answers when it reports a
 * resolution under the firing post.
 */
export interface AlertSend {
  input: string;
  target: string;
  text: string;
  replyTo?: number | undefined;
}

/** Runs the rest of the chain (the next middleware, then the handler). Call it at most once. */
export type Next = () => Promise<void>;

/**
 * A step around every handler run: before it, after it, or instead of it (not calling `next`). It may
 * put values on `ctx.locals` for the steps and handler after it, time or log the run, and catch its
 * errors. A throw fails the run as a handler's throw does (the inbox retries the delivery).
 *
 * @example
 * const timing: Middleware = async (input, ctx, next) => {
 *   const started = ctx.now();
 *   await next();
 *   ctx.log.info(`${input.what} took ${ctx.now() - started} ms`);
 * };
 */
export type Middleware<C = any> = (input: HandlerInput, ctx: BotContext<C>, next: Next) => unknown;

/**
 * A bot's middleware made one step, composed once (at load, for a deployment): runs `handler` inside
 * every middleware, first outermost. The same value serves every trigger: deliveries, jobs, timeouts,
 * alerts.
 */
export type Chain = (input: HandlerInput, ctx: BotContext<any>, handler: () => unknown) => Promise<void>;

/**
 * Composes `middleware` into one `Chain`, first middleware outermost. A middleware that calls `next`
 * twice gets an error (the handler would run twice); one that never calls it skips the handler and the rest.
 *
 * @example
 * const chain = compose([...runtimeMiddleware, ...definition.use]);
 * await chain({ kind: 'job', what: 'job digest', job }, ctx, () => digest(ctx, job));
 */
export function compose(middleware: readonly Middleware[]): Chain {
  const steps = [...middleware];
  return async (input, ctx, handler) => {
    let reached = -1;
    const step = async (index: number): Promise<void> => {
      if (index <= reached) throw new IntrabotError('internal', `middleware ${index} of ${input.what}: next() called twice`);
      reached = index;
      const middleware = steps[index];
      if (middleware === undefined) {
        await handler();
        return;
      }
      await middleware(input, ctx, () => step(index + 1));
    };
    await step(0);
  };
}

/** A typed slot of `ctx.locals`: what one middleware sets and later steps read, with its type. */
export interface LocalKey<T> {
  readonly name: string;
  get(ctx: Pick<BotContext<any>, 'locals'>): T | undefined;
  set(ctx: Pick<BotContext<any>, 'locals'>, value: T): void;
}

/**
 * A typed key into `ctx.locals`, so a value a middleware puts there reads back with its type.
 *
 * @example
 * export const requester = defineLocal<{ id: number; name: string }>('requester');
 * // in a middleware: requester.set(ctx, input.command.user)
 * // in a handler:    requester.get(ctx)?.name
 */
export function defineLocal<T>(name: string): LocalKey<T> {
  return new Local<T>(name);
}

class Local<T> implements LocalKey<T> {
  constructor(readonly name: string) {}

  get(ctx: Pick<BotContext<any>, 'locals'>): T | undefined {
    return ctx.locals[this.name] as T | undefined;
  }

  set(ctx: Pick<BotContext<any>, 'locals'>, value: T): void {
    ctx.locals[this.name] = value;
  }
}

/**
 * Until when (ms on the runtime's clock) what this run sends waits in the outbox before it goes out:
 * set by a middleware (`quietHours`), honoured by every send of the context (the entry is durable
 * meanwhile). Unset: sent at once.
 */
export const HOLD_SENDS_UNTIL = defineLocal<number>('intrabot.holdSendsUntil');
