import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { createSystemClock } from '../../clock';
import type { SandboxContext } from '../context';
import { FaultSchema, type FaultTable } from '../http/faults';
import type { RequestLog } from '../http/request-log';
import { validate } from '../http/validate';
import type { SeedOptions } from '../module';
import { SandboxSettingsPatchSchema } from '../settings';
import { ALL_SCOPES, KIND, type UserRecord } from '../state/records';
import { nextTimeOfDay, parseIso } from '../time';

const ResetSchema = z.object({
  seed: z.enum(['demo', 'empty', 'large']).default('demo'),
  users: z.number().int().min(1).max(100_000).optional(),
  /** Where the clock stands for the fresh seed (ISO 8601); omitted: the real time. */
  now: z.string().optional(),
});

const TokenCreateSchema = z.object({
  name: z.string().min(1),
  scopes: z.array(z.enum(ALL_SCOPES)).default([]),
  expires_at: z.string().nullable().optional(),
  ip: z.string().nullable().optional(),
  attribution: z.enum(['creator', 'system']).default('creator'),
  user_id: z.number().int().optional(),
});

const ClockSchema = z.union([
  z.object({ advance_seconds: z.number().min(0) }).strict(),
  z.object({ now: z.string() }).strict(),
  /** The next time the customer's clocks show this time of day (`08:00`): a daily job's next slot. */
  z.object({ next: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: 'must be a time of day, HH:MM' }) }).strict(),
]);

export interface CoreControlDeps {
  reset(options: SeedOptions): void;
  faults: FaultTable;
  requests: RequestLog;
  coverage(): unknown;
}

/** The control API every sandbox has: reset, tokens, clock, settings, faults, request log, coverage. */
export function registerCoreControl(app: FastifyInstance, ctx: SandboxContext, deps: CoreControlDeps): void {
  app.post('/_sandbox/reset', async (request, reply) => {
    const { now, ...options } = validate(ResetSchema, request.body);
    const target = now === undefined ? createSystemClock().now() : parseIso(now, ctx.settings.timezone);
    if (Number.isNaN(target)) return reply.code(422).send({ error: 'validation_error', message: 'now: must be an ISO 8601 date or datetime' });
    // Starting over starts time over too: the clock leaves wherever tests or users moved it and goes
    // back to the real time (or to `now`) before the seed dates its birthdays, anniversaries and
    // schedules by it. A runtime sharing this clock (npm start) moves with it.
    ctx.clock.set(target);
    deps.reset(options);
    return { ok: true, seed: options.seed, now: ctx.nowIso() };
  });

  app.post('/_sandbox/tokens', async (request, reply) => {
    const body = validate(TokenCreateSchema, request.body);
    const admin = ctx.db.find<UserRecord & { id: number }>(KIND.users, (u) => u.kind === 'default' && u.status === 'registered');
    const expires = body.expires_at ? parseIso(body.expires_at, ctx.settings.timezone) : null;
    if (expires !== null && Number.isNaN(expires))
      return reply.code(422).send({ error: 'validation_error', message: 'expires_at: must be an ISO 8601 datetime' });
    const token = `svc_${randomBytes(18).toString('base64url')}`;
    ctx.db.insert(KIND.tokens, {
      name: body.name,
      token,
      scopes: body.scopes,
      expires_at: expires,
      ip: body.ip ?? null,
      attribution: body.attribution,
      user_id: body.user_id ?? admin?.id ?? 1,
      active: true,
      created_at: ctx.now(),
    });
    return reply.code(201).send({ token });
  });

  app.get('/_sandbox/clock', async () => ({ now: ctx.nowIso(), epoch_ms: ctx.now() }));

  app.post('/_sandbox/clock', async (request, reply) => {
    const body = validate(ClockSchema, request.body);
    if ('advance_seconds' in body) ctx.clock.advance(body.advance_seconds * 1000);
    else if ('next' in body) ctx.clock.set(nextTimeOfDay(ctx.now(), body.next, ctx.settings.timezone));
    else {
      const target = parseIso(body.now, ctx.settings.timezone);
      if (Number.isNaN(target)) return reply.code(422).send({ error: 'validation_error', message: 'now: must be an ISO 8601 datetime' });
      ctx.clock.set(target);
    }
    // what became due runs before the answer, so the caller observes its effects at once
    ctx.tick();
    return { now: ctx.nowIso(), epoch_ms: ctx.now() };
  });

  app.get('/_sandbox/settings', async () => ctx.settings);

  app.put('/_sandbox/settings', async (request) => {
    const patch = validate(SandboxSettingsPatchSchema, request.body);
    return ctx.updateSettings(patch);
  });

  app.post('/_sandbox/faults', async (request, reply) => reply.code(201).send(deps.faults.add(validate(FaultSchema, request.body))));
  app.get('/_sandbox/faults', async () => ({ data: deps.faults.list() }));
  app.delete('/_sandbox/faults', async (_request, reply) => {
    deps.faults.clear();
    return reply.code(204).send();
  });

  app.get('/_sandbox/requests', async (request) => {
    const limit = Number((request.query as Record<string, unknown>).limit ?? 100);
    return { data: deps.requests.list(Number.isInteger(limit) && limit > 0 ? limit : 100) };
  });
  app.delete('/_sandbox/requests', async (_request, reply) => {
    deps.requests.clear();
    return reply.code(204).send();
  });

  app.get('/_sandbox/coverage', async () => deps.coverage());
}
