import type { FastifyRequest } from 'fastify';
import { BotUserCreateSchema, BotUserUpdateSchema } from '../../../api/schemas';
import type { SandboxContext } from '../../context';
import type { ApiRouter } from '../../http/api-router';
import { paginate, readPageQuery } from '../../http/pagination';
import { notFound } from '../../http/sandbox-error';
import { idParam, validate } from '../../http/validate';
import { newUser } from '../../seed/base';
import { DEFAULT_BOT_AVATAR_URL, isBot, serializeBot } from '../../serialize/bot';
import { KIND, type UserRecord } from '../../state/records';

type StoredUser = UserRecord & { id: number };

/** spec: Bots (read:bots, write:bots). Bot users are users of kind `bot`, outside /users. */
export function registerBotRoutes(router: ApiRouter, ctx: SandboxContext): void {
  router.route('GET', '/bots', 'read:bots', (request) => {
    const page = readPageQuery(request.query as Record<string, unknown>, ctx.settings.timezone);
    return paginate(request, ctx.db.filter<StoredUser>(KIND.users, isBot), page, (u) => serializeBot(ctx, u));
  });
  router.route('GET', '/bots/{id}', 'read:bots', (request) => ({ data: serializeBot(ctx, botOf(ctx, request)) }));
  router.route('POST', '/bots', 'write:bots', (request) => ({ data: serializeBot(ctx, createBot(ctx, request.body)) }), { status: 201 });
  router.route('PUT', '/bots/{id}', 'write:bots', (request) => {
    const bot = botOf(ctx, request);
    const input = validate(BotUserUpdateSchema, request.body);
    const patch: Partial<StoredUser> = {};
    if (input.name !== undefined) Object.assign(patch, { name: input.name, first_name: input.name });
    if (input.avatar_url !== undefined) patch.avatar_url = input.avatar_url;
    return { data: serializeBot(ctx, ctx.db.update<StoredUser>(KIND.users, bot.id, patch) as StoredUser) };
  });
}

function botOf(ctx: SandboxContext, request: FastifyRequest): StoredUser {
  const user = ctx.db.get<StoredUser>(KIND.users, idParam((request.params as { id?: string }).id));
  if (!isBot(user)) throw notFound();
  return user as StoredUser;
}

function createBot(ctx: SandboxContext, body: unknown): StoredUser {
  const input = validate(BotUserCreateSchema, body);
  const count = ctx.db.filter<StoredUser>(KIND.users, (u) => u.kind === 'bot').length;
  return ctx.db.insert(
    KIND.users,
    newUser(ctx, {
      kind: 'bot',
      first_name: input.name,
      last_name: '',
      name: input.name,
      // bots have no mailbox; a unique placeholder keeps the user table's emails distinct
      email: `bot-${count + 1}@bots.sandbox.example`,
      // spec: Bot user — avatar_url defaults to the customer app icon
      avatar_url: input.avatar_url ?? DEFAULT_BOT_AVATAR_URL,
      last_active_on: null,
    }),
  );
}
